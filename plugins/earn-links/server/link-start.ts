// Starting a link (reference: GET /api/user/earn/l4r/{provider}/start): a new single-use token, the
// callback address that carries it — on the panel's public address, never the request's Host
// header — shortened by the provider, and the token stored only once the provider made the link.
// A start the user could not be paid for (daily limit reached, cooldown running) is refused at once
// rather than after the user went through the provider's pages.
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { PluginClock, PluginMail } from '@orepanel/sdk/server';
import { linkRefusals } from './link-errors';
import { quotaRefusal, type LinkQuotas } from './link-quotas';
import { newLinkToken, type LinkTokens } from './link-tokens';
import type { ProviderConfig } from './provider-config';
import { shorten, ShortenerError, ShortenerNotConfigured } from './shorteners';

export interface StartedLink {
  /** the provider's short link the browser goes to */
  url: string;
  /** when the callback pays at the earliest */
  notBefore: string;
  expiresAt: string;
}

export function callbackPath(provider: string, token: string): string {
  return `/api/user/earn/l4r/${provider}/earn/${token}`;
}

export class LinkStart {
  constructor(
    private readonly services: { mail: PluginMail; clock: PluginClock; log: FastifyBaseLogger },
    private readonly tokens: LinkTokens,
    private readonly quotas: LinkQuotas,
  ) {}

  async start(request: FastifyRequest, userId: number, provider: ProviderConfig): Promise<StartedLink> {
    const now = this.services.clock.now();
    const refusal = quotaRefusal(await this.quotas.read(userId, provider.id, now), provider, now);
    if (refusal) throw refusal.reason === 'daily_limit' ? linkRefusals.dailyLimit(provider) : linkRefusals.cooldown(provider, refusal.secondsLeft);

    let publicUrl: string;
    try {
      publicUrl = await this.services.mail.publicUrl(request);
    } catch {
      this.services.log.warn({ provider: provider.id }, 'link for rewards needs the panel public address (APP_URL or app_url)');
      throw linkRefusals.notConfigured(provider);
    }
    const token = newLinkToken();
    let url: string;
    try {
      url = await shorten(provider, `${publicUrl}${callbackPath(provider.id, token)}`);
    } catch (error) {
      if (error instanceof ShortenerNotConfigured) {
        this.services.log.warn({ provider: provider.id, detail: error.message }, 'link provider not configured');
        throw linkRefusals.notConfigured(provider);
      }
      if (error instanceof ShortenerError) {
        this.services.log.warn({ provider: provider.id, detail: error.message }, 'link provider failed');
        throw linkRefusals.providerFailed(provider);
      }
      throw error;
    }
    await this.quotas.ensure(userId, provider.id, now);
    const stored = await this.tokens.store(userId, provider.id, token, provider, this.services.clock.now());
    return { url, notBefore: stored.notBefore, expiresAt: stored.expiresAt };
  }
}
