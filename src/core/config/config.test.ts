import { describe, expect, it } from 'vitest';
import { createConfig } from './config';

describe('createConfig', () => {
  it('uses the spec defaults when the env is empty', () => {
    expect(createConfig({})).toEqual({
      apiBase: '',
      botServiceUrl: '/bot-service',
      socketDomain: '',
      version: '1.11.0',
      environment: 'production',
    });
  });

  it('reads VITE_* variables and applies overrides last', () => {
    const config = createConfig(
      { VITE_API_BASE: 'https://api.example.com', VITE_BOT_SERVICE_URL: 'https://bots', VITE_SOCKET_DOMAIN: 'wss://chat' },
      { socketDomain: 'wss://other' },
    );
    expect(config.apiBase).toBe('https://api.example.com');
    expect(config.botServiceUrl).toBe('https://bots');
    expect(config.socketDomain).toBe('wss://other');
  });
});
