/**
 * The offline demo's WhatsApp templates, one of each kind with a carousel among them: seeded on the
 * fake Meta by the server's demo (server/plugins/templates/demo.ts) and used as realistic templates
 * by the console's tests.
 */
import type { CarouselCard, TemplateDefinition } from './templates';

const IMAGE_HANDLE = '4::ZGVtby1pbWFnZQ==';
const card = (title: string): CarouselCard => ({
  components: [
    { type: 'HEADER', format: 'IMAGE', example: { header_handle: [IMAGE_HANDLE] } },
    { type: 'BODY', text: title },
    { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'I want it' }, { type: 'URL', text: 'See more', url: 'https://example.com/shop' }] },
  ],
});

export const DEMO_TEMPLATES: TemplateDefinition[] = [
  {
    name: 'welcome_offer',
    language: 'en_US',
    category: 'MARKETING',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Welcome, {{1}}!', example: { header_text: ['Maria'] } },
      { type: 'BODY', text: 'Hi {{1}}, enjoy {{2}} off your first order with us.', example: { body_text: [['Maria', '10%']] } },
      { type: 'FOOTER', text: 'Reply STOP to opt out' },
      { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Shop now' }, { type: 'QUICK_REPLY', text: 'Not now' }] },
    ],
  },
  {
    name: 'order_shipped',
    language: 'en_US',
    category: 'UTILITY',
    components: [
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: [IMAGE_HANDLE] } },
      { type: 'BODY', text: 'Good news {{1}}: order {{2}} is on its way.', example: { body_text: [['Maria', 'A-1042']] } },
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track it', url: 'https://example.com/track/{{1}}', example: ['https://example.com/track/A-1042'] }, { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+15550100000' }] },
    ],
  },
  {
    name: 'spring_coupon',
    language: 'en_US',
    category: 'MARKETING',
    components: [
      { type: 'BODY', text: 'Spring is here! Use the code below at checkout.' },
      { type: 'BUTTONS', buttons: [{ type: 'COPY_CODE', example: 'SPRING15' }] },
    ],
  },
  {
    name: 'login_code',
    language: 'en_US',
    category: 'AUTHENTICATION',
    components: [
      { type: 'BODY', add_security_recommendation: true },
      { type: 'FOOTER', code_expiration_minutes: 10 },
      { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] },
    ],
  },
  {
    name: 'new_arrivals',
    language: 'en_US',
    category: 'MARKETING',
    components: [
      { type: 'BODY', text: 'New arrivals picked for you, {{1}}.', example: { body_text: [['Maria']] } },
      { type: 'CAROUSEL', cards: [card('The linen shirt'), card('The canvas tote'), card('The summer hat')] },
    ],
  },
];
