// The one list of first-party plugins that still reach core tables through their database handle,
// each with why and what would end it. It only shrinks: a plugin leaves it when the core service it
// needs exists. Third-party plugins get no exceptions, ever (table-rules.ts).
import type { TableAccess } from './table-boundary';

export interface TableException {
  plugin: string;
  table: string;
  /** 'write' includes reading */
  access: TableAccess;
  why: string;
}

export const FIRST_PARTY_TABLE_EXCEPTIONS: readonly TableException[] = Object.freeze([
  {
    plugin: 'auth',
    table: 'users',
    access: 'read',
    why: 'a single-use link (password reset, e-mail verification) is used up only while the account still has the address it was mailed to, checked in the same statement that uses it; ends with a core single-use token service',
  },
  {
    plugin: 'servers',
    table: 'users',
    access: 'read',
    why: "the administrators' server list finds servers by their owner's e-mail address, which user_public leaves out; ends with a core account search",
  },
  {
    plugin: 'leaderboard',
    table: 'users',
    access: 'index',
    why: 'its migration 0001 indexes users by (banned, coins) and (banned, minutes_afk) for the boards it reads through user_public; a shipped migration is never edited — ends when the core creates these indexes with the view',
  },
]);
