// The redirect link form's values and checks: the plugin's REDIRECT_LINK_RULES and isHttpUrl, the very
// rules of the server's schema (server/admin-routes.ts), which stays the authority.
import { changedFields } from '@orepanel/sdk';
import { isHttpUrl, REDIRECT_LINK_RULES } from '../shared/link-rules';
import type { RedirectLink } from './redirect-links-api';

/** What the inputs hold: text, as typed. icon '' = the plain link icon. */
export interface RedirectLinkFormValues {
  name: string;
  url: string;
  icon: string;
  order: string;
}

/** What the admin API takes. */
export interface RedirectLinkBody {
  name: string;
  url: string;
  icon: string | null;
  order: number;
}

/** i18n keys (admin namespace) of the problems, per field. */
export type RedirectLinkFormProblems = Partial<Record<keyof RedirectLinkFormValues, string>>;

export const EMPTY_REDIRECT_LINK: RedirectLinkFormValues = { name: '', url: '', icon: '', order: '0' };

const R = REDIRECT_LINK_RULES;

export function formValuesOf(link: RedirectLink): RedirectLinkFormValues {
  return { name: link.name, url: link.url, icon: link.icon ?? '', order: String(link.order) };
}

export function checkRedirectLinkForm(values: RedirectLinkFormValues): RedirectLinkFormProblems {
  const problems: RedirectLinkFormProblems = {};
  const name = values.name.trim();
  if (name === '') problems.name = 'validation.required';
  else if (name.length > R.name.maxLength) problems.name = 'validation.maxLength';
  const url = values.url.trim();
  if (url === '') problems.url = 'validation.required';
  else if (!isHttpUrl(url)) problems.url = 'validation.url';
  const order = values.order.trim();
  if (!/^-?\d+$/.test(order)) problems.order = 'validation.integer';
  else if (Number(order) < R.order.minimum || Number(order) > R.order.maximum) problems.order = 'validation.range';
  return problems;
}

/** The values the problems' texts need ({{max}}, {{min}}), per field. */
export function problemValues(field: keyof RedirectLinkFormValues): Record<string, number> {
  if (field === 'name') return { max: R.name.maxLength };
  if (field === 'order') return { min: R.order.minimum, max: R.order.maximum };
  return {};
}

/** The body of checked values (trimmed; the empty icon is none). */
export function redirectLinkBody(values: RedirectLinkFormValues): RedirectLinkBody {
  return { name: values.name.trim(), url: values.url.trim(), icon: values.icon === '' ? null : values.icon, order: Number(values.order.trim()) };
}

/** The fields that differ from `before` (a new link: all of them). */
export function redirectLinkChanges(before: RedirectLink | null, values: RedirectLinkFormValues): Partial<RedirectLinkBody> {
  return changedFields(before && { name: before.name, url: before.url, icon: before.icon, order: before.order }, redirectLinkBody(values));
}
