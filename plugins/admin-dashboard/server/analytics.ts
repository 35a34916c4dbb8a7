// The analytics component's figures: sign-ups (accounts created) and logins (auth.login audit
// entries) per UTC day over the last `days` days with today, zeros included, and their totals.
import type { AccountStatistics, PluginAudit } from '@orepanel/sdk/server';

export const ANALYTICS_PERIODS = [14, 30] as const;

export interface DailyPoint {
  /** YYYY-MM-DD (UTC) */
  date: string;
  signups: number;
  logins: number;
}

export interface Analytics {
  days: number;
  series: DailyPoint[];
  totals: { signups: number; logins: number; active_users: number; accounts: number };
}

const DAY_MS = 86_400_000;

/** What the figures are read from: ctx.accountStats and ctx.audit. */
export interface AnalyticsSources {
  accountStats: Pick<AccountStatistics, 'createdPerDay' | 'counts'>;
  audit: Pick<PluginAudit, 'countPerDay' | 'distinctActors'>;
}

export async function analytics(ctx: AnalyticsSources, days: number, now = new Date()): Promise<Analytics> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const dates = Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
  const from = new Date(`${dates[0]}T00:00:00.000Z`);

  const [signups, logins, active, accounts] = await Promise.all([
    ctx.accountStats.createdPerDay(from),
    ctx.audit.countPerDay('auth.login', from),
    ctx.audit.distinctActors('auth.login', from),
    ctx.accountStats.counts(),
  ]);
  const byDay = (rows: { day: string; count: number }[]) => new Map(rows.map((r) => [r.day, r.count]));
  const signupsByDay = byDay(signups);
  const loginsByDay = byDay(logins);
  const series = dates.map((date) => ({ date, signups: signupsByDay.get(date) ?? 0, logins: loginsByDay.get(date) ?? 0 }));
  return {
    days,
    series,
    totals: {
      signups: series.reduce((sum, p) => sum + p.signups, 0),
      logins: series.reduce((sum, p) => sum + p.logins, 0),
      active_users: active,
      accounts: accounts.total,
    },
  };
}
