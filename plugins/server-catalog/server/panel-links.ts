// What the catalog asks the host's Pterodactyl panel: does the panel object a row links to exist
// (checked on create and when a link changes, only while a panel is configured), and what the panel
// offers for the pickers and the import. The panel's failures become the API's errors here, in one
// place: a refusal of the linked id is the administrator's input (400 with the panel's reason, on the
// field); a panel that cannot be asked is the panel's problem (502/503 with its code), and nothing is saved.
import { isPanelError, type HttpError, type PanelEgg, type PanelError, type PanelLocation, type PanelNest, type ServerPluginContext } from '@orepanel/sdk/server';

/** the panel could not be asked now: trying later may work */
const UNAVAILABLE = new Set(['PANEL_UNREACHABLE', 'PANEL_TIMEOUT', 'PANEL_RATE_LIMITED']);

/** A panel failure as the API's error: 503 while it cannot be reached, 502 when it answered wrongly. */
export function panelFailure(ctx: ServerPluginContext, error: PanelError): HttpError {
  if (error.code === 'PANEL_NOT_CONFIGURED')
    return ctx.httpError(409, 'PANEL_NOT_CONFIGURED', 'No Pterodactyl panel is configured (settings pterodactyl_base_url and pterodactyl_api_key).');
  const reason = error.detail ? ` The panel said: ${error.detail}` : '';
  if (UNAVAILABLE.has(error.code)) return ctx.httpError(503, error.code, `The Pterodactyl panel cannot be reached right now; nothing was saved.${reason}`);
  if (error.code === 'PANEL_AUTH') return ctx.httpError(502, 'PANEL_AUTH', `The Pterodactyl panel refused the application key; nothing was saved.${reason}`);
  return ctx.httpError(502, error.code, `The Pterodactyl panel answered with an error; nothing was saved.${reason}`);
}

export type PanelObjectKind = 'location' | 'nest' | 'egg';

const NOT_FOUND: Record<PanelObjectKind, { code: string; field: string; what: string }> = {
  location: { code: 'PANEL_LOCATION_NOT_FOUND', field: 'panel_location_id', what: 'location' },
  nest: { code: 'PANEL_NEST_NOT_FOUND', field: 'panel_nest_id', what: 'nest' },
  egg: { code: 'PANEL_EGG_NOT_FOUND', field: 'panel_egg_id', what: 'egg' },
};

export class PanelLinks {
  constructor(private readonly ctx: ServerPluginContext) {}

  /** Runs a panel call, turning its failures into the API's errors (a missing object: 400 on `kind`'s field). */
  private async ask<T>(kind: PanelObjectKind | null, id: number | null, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!isPanelError(error)) throw error;
      if (kind && error.code === 'PANEL_NOT_FOUND') {
        const { code, field, what } = NOT_FOUND[kind];
        throw this.ctx.httpError(400, code, `The panel has no ${what} with id ${id}.${error.detail ? ` The panel said: ${error.detail}` : ''}`, field);
      }
      throw panelFailure(this.ctx, error);
    }
  }

  configured(): Promise<boolean> {
    return this.ctx.pterodactyl.configured();
  }

  /** Throws unless a panel is configured (the import and the pickers need one). */
  async requireConfigured(): Promise<void> {
    if (!(await this.configured()))
      throw this.ctx.httpError(409, 'PANEL_NOT_CONFIGURED', 'No Pterodactyl panel is configured (settings pterodactyl_base_url and pterodactyl_api_key).');
  }

  /** The linked location exists on the panel (skipped while no panel is configured). */
  async checkLocation(panelLocationId: number): Promise<void> {
    if (!(await this.configured())) return;
    await this.ask('location', panelLocationId, () => this.ctx.pterodactyl.locations.get(panelLocationId));
  }

  async checkNest(panelNestId: number): Promise<void> {
    if (!(await this.configured())) return;
    await this.ask('nest', panelNestId, () => this.ctx.pterodactyl.nests.get(panelNestId));
  }

  async checkEgg(panelNestId: number, panelEggId: number): Promise<void> {
    if (!(await this.configured())) return;
    await this.ask('egg', panelEggId, () => this.ctx.pterodactyl.nests.egg(panelNestId, panelEggId));
  }

  locations(): Promise<PanelLocation[]> {
    return this.ask(null, null, () => this.ctx.pterodactyl.locations.list());
  }

  nests(): Promise<PanelNest[]> {
    return this.ask(null, null, () => this.ctx.pterodactyl.nests.list());
  }

  eggsOf(nestId: number): Promise<PanelEgg[]> {
    return this.ask(null, null, () => this.ctx.pterodactyl.nests.eggs(nestId));
  }
}
