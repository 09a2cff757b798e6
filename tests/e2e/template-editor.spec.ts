import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiHeaders } from './support/apiSession';
import { expectNoSeriousA11yViolationsInBothThemes, useConsoleTheme } from './support/accessibility';
import { DEMO_ADMIN, DEMO_COMPANY } from './support/demo';
import { signInTo } from './support/session';

/** A 1×1 PNG: the media header's sample. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const image = (name: string) => ({ name, mimeType: 'image/png', buffer: PNG });
const SHOTS = process.env.E2E_SCREENSHOTS;

/** The Demo Company's WhatsApp number on the local fake Meta (seeded once the server listens). */
async function demoWhatsAppChannel(request: APIRequestContext): Promise<number> {
  const login = await request.post('/account/login/', { data: { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password } });
  const { access } = (await login.json()) as { access: string };
  const auth = { Authorization: `Bearer ${access}` };
  const user = (await (await request.get('/account/user/', { headers: auth })).json()) as { companies: { id: number; name: string }[] };
  const company = user.companies.find((c) => c.name === DEMO_COMPANY)!;
  let channelId = 0;
  await expect
    .poll(async () => {
      const res = await request.get('/api/channels/', { headers: { ...auth, Company: String(company.id) } });
      const { results } = (await res.json()) as { results: { id: number; platform: string; connected: boolean }[] };
      channelId = results.find((c) => c.platform === 'whatsapp' && c.connected)?.id ?? 0;
      return channelId;
    })
    .toBeGreaterThan(0);
  return channelId;
}

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

test('an admin authors a marketing template with an uploaded image header, a variable and two quick replies, seen in the phone preview', async ({ page, request }) => {
  const channelId = await demoWhatsAppChannel(request);
  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  await page.goto(`/templates/create-whatsapp-template/marketing/media?channel=${channelId}`);

  const name = page.getByTestId('name');
  await name.fill('Spring Sale');
  await expect(page.getByText('Use lowercase letters, digits and underscores only.')).toBeVisible();
  const templateName = `spring_sale_${Date.now().toString(36)}`;
  await name.fill(templateName);
  await expect(page.getByText('Use lowercase letters, digits and underscores only.')).toBeHidden();

  // The sample image goes up with progress, then to Meta's resumable upload for the handle.
  await page.getByTestId('header-media-input').setInputFiles(image('spring.png'));
  await expect(page.getByTestId('header-media-done')).toHaveText('spring.png');
  await expect(page.getByTestId('preview-bubble').getByRole('img', { name: 'Header image' })).toBeVisible();

  const body = page.getByTestId('body').getByRole('textbox', { name: 'Body' });
  await body.fill('Hi ');
  await body.press('End');
  await page.getByTestId('body-add-variable').click();
  await body.press('End');
  await body.pressSequentially(', our *spring sale* starts today.');
  await page.getByTestId('body-example-1').fill('Maria');
  await expect(page.getByTestId('preview-body')).toHaveText('Hi Maria, our spring sale starts today.');
  await expect(page.getByTestId('preview-body').locator('span', { hasText: 'spring sale' })).toHaveCSS('font-weight', '700');

  await page.getByTestId('add-button').click();
  await page.getByRole('menuitem', { name: 'Quick reply' }).click();
  await page.getByTestId('buttons.0.text').fill('Shop now');
  await page.getByTestId('add-button').click();
  await page.getByRole('menuitem', { name: 'Quick reply' }).click();
  await page.getByTestId('buttons.1.text').fill('Not now');
  await expect(page.getByTestId('preview-button')).toHaveText(['Shop now', 'Not now']);
  await shot(page, 'template-editor');

  await page.getByTestId('submit-template').click();
  await expect(page.getByText('Template successfully created.')).toBeVisible();
  await expect(page).toHaveURL(/\/templates$/);
});

test('an admin builds a carousel of three cards, reordered, previewed as a swipeable row', async ({ page, request }) => {
  const channelId = await demoWhatsAppChannel(request);
  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  await page.goto(`/templates/create-whatsapp-carousel?channel=${channelId}`);

  await page.getByTestId('name').fill(`summer_picks_${Date.now().toString(36)}`);
  await page.getByTestId('body').getByRole('textbox').fill('Our summer picks for you.');
  await page.getByTestId('add-card').click();
  await expect(page.getByTestId('preview-card')).toHaveCount(3);
  for (const [i, title] of ['Sandals', 'Hats', 'Sunglasses'].entries()) {
    await page.getByTestId(`cards.${i}.media-input`).setInputFiles(image(`card-${i}.png`));
    await expect(page.getByTestId(`cards.${i}.media-done`)).toHaveText(`card-${i}.png`);
    await page.getByTestId(`cards.${i}.body`).getByRole('textbox').fill(title);
    await page.getByTestId(`cards.${i}.buttons.0.text`).fill('I want it');
    await page.getByTestId(`cards.${i}.buttons.1.text`).fill('See more');
    await page.getByTestId(`cards.${i}.buttons.1.url`).fill(`https://shop.example.com/${title.toLowerCase()}`);
  }
  await page.getByRole('button', { name: 'Move card 3 earlier' }).click();
  await expect(page.getByTestId('preview-card').getByTestId('preview-body')).toHaveText(['Sandals', 'Sunglasses', 'Hats']);
  // The row scrolls sideways (a swipe on a phone).
  const row = page.getByTestId('preview-carousel');
  expect(await row.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await shot(page, 'carousel-builder');

  await page.getByTestId('submit-carousel').click();
  await expect(page.getByText('Template successfully created.')).toBeVisible();
  await expect(page).toHaveURL(/\/templates$/);
});

test('an admin edits an approved template where Meta allows it: name and language locked, back to review', async ({ page, request }) => {
  const channelId = await demoWhatsAppChannel(request);
  const headers = await apiHeaders(request, DEMO_ADMIN, DEMO_COMPANY);
  const shipped = async () => {
    const res = await request.get(`/api/channels/${channelId}/templates/`, { headers, params: { search: 'order_shipped' } });
    return ((await res.json()) as { results: { id: number; status: string; components: { type: string; text?: string }[] }[] }).results[0];
  };
  // The fake Meta approves the demo's templates shortly after the start.
  await expect.poll(async () => (await shipped())?.status).toBe('APPROVED');
  const template = await shipped();

  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  await page.goto(`/templates/create-whatsapp-template/utility/media?channel=${channelId}&template=${template.id}`);
  await expect(page.getByTestId('name')).toHaveValue('order_shipped');
  await expect(page.getByTestId('name')).toBeDisabled();
  await expect(page.getByTestId('preview-body')).toHaveText('Good news Maria: order A-1042 is on its way.');
  await page.getByTestId('footer').fill('Thank you for shopping with us');
  await expect(page.getByTestId('preview-footer')).toHaveText('Thank you for shopping with us');
  await page.getByTestId('submit-template').click();
  await expect(page.getByText('Successfully updated template.')).toBeVisible();
  await expect(page).toHaveURL(/\/templates$/);
  const edited = await shipped();
  expect(edited.components.find((c) => c.type === 'FOOTER')?.text).toBe('Thank you for shopping with us');
});

// Each state opened once, checked whole in the light theme and for the colour rules in the dark one, switched in place.
test('the editor (text, media, authentication) and the carousel builder have no serious accessibility violations, in both themes', async ({ page, request }) => {
  const channelId = await demoWhatsAppChannel(request);
  await useConsoleTheme(page, 'light');
  await signInTo(page, DEMO_ADMIN, DEMO_COMPANY);
  for (const path of [
    `/templates/create-whatsapp-template/utility/text?channel=${channelId}`,
    `/templates/create-whatsapp-template/marketing/media?channel=${channelId}`,
    `/templates/create-whatsapp-template/authentication/authentication?channel=${channelId}`,
    `/templates/create-whatsapp-carousel?channel=${channelId}`,
  ]) {
    await page.goto(path);
    await expect(page.getByTestId('phone-preview')).toBeVisible();
    // Errors shown (a submit with empty fields) must be readable too.
    await page.getByRole('button', { name: /Submit/ }).click();
    await expectNoSeriousA11yViolationsInBothThemes(page, path, {
      inEachTheme: (theme) => shot(page, `a11y-${theme}-${path.split('?')[0].split('/').slice(-2).join('-')}`),
    });
  }
});
