import { Navigate, Route, Routes } from 'react-router-dom';
import { AlreadyConnectedStep } from './AlreadyConnectedStep';
import { IntegrationSuccessStep } from './IntegrationSuccessStep';
import { IntroStep } from './IntroStep';
import { StartStep } from './StartStep';
import { SIGNUP_POLL_MS } from './useSignupStatusPolling';
import { integrationPath } from './useSignupOwner';

/**
 * /whatsapp-integration/* (spec §2), outside the shell; login and a selected company are required
 * by the plugin route's guards. index → intro-step; intro-step, start, integration-success,
 * account-already-connected. `pollMs` (tests) is the signup-status polling interval.
 */
export default function WhatsAppIntegrationPage({ pollMs = SIGNUP_POLL_MS }: { pollMs?: number }) {
  return (
    <Routes>
      <Route index element={<Navigate to={integrationPath('intro-step')} replace />} />
      <Route path="intro-step" element={<IntroStep />} />
      <Route path="start" element={<StartStep pollMs={pollMs} />} />
      <Route path="integration-success" element={<IntegrationSuccessStep pollMs={pollMs} />} />
      <Route path="account-already-connected" element={<AlreadyConnectedStep />} />
      <Route path="*" element={<Navigate to={integrationPath('intro-step')} replace />} />
    </Routes>
  );
}
