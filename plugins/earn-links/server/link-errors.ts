// The refusals of link for rewards, as http errors with codes the page translates. The messages
// name the provider and, where it helps, how long to wait.
import { httpError, type HttpError } from '@orepanel/sdk/server';
import type { ProviderConfig } from './provider-config';

function minutes(seconds: number): number {
  return Math.max(1, Math.ceil(seconds / 60));
}

export const linkRefusals = {
  providerDisabled: (p: Pick<ProviderConfig, 'name'>): HttpError => httpError(403, 'L4R_PROVIDER_DISABLED', `${p.name} links are switched off on this panel.`, 'provider'),
  notConfigured: (p: Pick<ProviderConfig, 'name'>): HttpError => httpError(409, 'L4R_NOT_CONFIGURED', `${p.name} links are not set up on this panel yet.`, 'provider'),
  providerFailed: (p: Pick<ProviderConfig, 'name'>): HttpError =>
    httpError(502, 'L4R_PROVIDER_ERROR', `${p.name} could not make a link just now. Please try again later.`, 'provider'),
  dailyLimit: (p: Pick<ProviderConfig, 'name' | 'dailyLimit'>): HttpError =>
    httpError(409, 'L4R_DAILY_LIMIT', `You have completed today's ${p.dailyLimit} ${p.name} links. Come back tomorrow (UTC).`),
  cooldown: (p: Pick<ProviderConfig, 'name'>, secondsLeft: number): HttpError =>
    httpError(409, 'L4R_COOLDOWN', `Please wait ${minutes(secondsLeft)} more minute(s) before your next ${p.name} link.`),
  tokenInvalid: (): HttpError => httpError(404, 'L4R_TOKEN_INVALID', 'This link is not valid.', 'token'),
  tokenUsed: (): HttpError => httpError(409, 'L4R_TOKEN_USED', 'This link has already been used.', 'token'),
  tokenReplaced: (): HttpError => httpError(409, 'L4R_TOKEN_REPLACED', 'You started a newer link; this one no longer counts.', 'token'),
  tokenExpired: (): HttpError => httpError(410, 'L4R_TOKEN_EXPIRED', 'This link has expired. Please start a new one.', 'token'),
  tooFast: (): HttpError => httpError(409, 'L4R_TOO_FAST', 'That was faster than anyone can complete the link. Please go through the whole link.', 'token'),
};
