import { describe, expect, it } from 'vitest';
import { consoleTokenHeader } from './flowService';

const session = { getAccessToken: () => 'jwt-of-the-member' };

describe('consoleTokenHeader', () => {
  it("sends the member's token to a bot service on the console's own origin only", () => {
    expect(consoleTokenHeader('https://console.example/bot-service', session, 'https://console.example')).toEqual({ 'X-Console-Token': 'jwt-of-the-member' });
    expect(consoleTokenHeader('/bot-service', session, 'https://console.example')).toEqual({ 'X-Console-Token': 'jwt-of-the-member' });
    expect(consoleTokenHeader('https://bots.other.example/service', session, 'https://console.example')).toEqual({});
    expect(consoleTokenHeader('http://console.example/bot-service', session, 'https://console.example')).toEqual({});
  });

  it('sends nothing without a token or an origin', () => {
    expect(consoleTokenHeader('/bot-service', { getAccessToken: () => null }, 'https://console.example')).toEqual({});
    expect(consoleTokenHeader('/bot-service', undefined, 'https://console.example')).toEqual({});
    expect(consoleTokenHeader('/bot-service', session, undefined)).toEqual({});
  });
});
