// @vitest-environment jsdom
// The admin screens' shared pieces: a setting's draft checks and what a save sends (the server stays
// the authority, these only spare a round trip), dates in the interface language, and the load error
// title every admin screen shows.
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fillJsdomGaps } from '../../testing/jsdom-gaps';
import { ApiError } from '../http';
import { i18n } from '../i18n';
import { ResourceState } from '../ui/resource-state';
import type { SettingDescriptor } from './admin-api';
import { useDateTime } from './date-time';
import { changedValues, initialDrafts, settingProblem } from './setting-values';

beforeAll(fillJsdomGaps);

const setting = (extra: Partial<SettingDescriptor>): SettingDescriptor => ({
  key: 'k',
  type: 'string',
  label: 'K',
  value: '',
  default: '',
  secret: false,
  public: false,
  updated_at: null,
  ...extra,
});

describe('setting drafts', () => {
  it('checks a draft by its type and bounds, naming the sdk text of the problem', () => {
    const ram = setting({ key: 'default_ram', type: 'number', value: 1024, min: 0, max: 4096 });
    expect(settingProblem(ram, '2048')).toBeNull();
    expect(settingProblem(ram, 'x')).toEqual({ key: 'settingNumber' });
    expect(settingProblem(ram, '-1')).toEqual({ key: 'settingMin', values: { min: 0 } });
    expect(settingProblem(ram, '5000')).toEqual({ key: 'settingMax', values: { max: 4096 } });
    expect(settingProblem(setting({ type: 'url' }), 'javascript:alert(1)')).toEqual({ key: 'settingUrl' });
    expect(settingProblem(setting({ type: 'url' }), 'https://panel.example.com')).toBeNull();
    expect(settingProblem(setting({ type: 'email' }), 'not-an-address')).toEqual({ key: 'settingEmail' });
    expect(settingProblem(setting({ type: 'select', options: ['a', 'b'] }), 'c')).toEqual({ key: 'settingOption' });
    expect(settingProblem(setting({ max: 3 }), 'long')).toEqual({ key: 'settingMaxLength', values: { max: 3 } });
    // an empty secret keeps what is stored: nothing to check
    expect(settingProblem(setting({ type: 'email', secret: true, value: { set: true } }), '')).toBeNull();
  });

  it('sends only what changed, typed, and a secret only when a new value was typed', () => {
    const settings = [
      setting({ key: 'app_name', value: 'Orepanel' }),
      setting({ key: 'default_ram', type: 'number', value: 1024 }),
      setting({ key: 'smtp_pass', secret: true, value: { set: true } }),
      setting({ key: 'mail_enabled', type: 'boolean', value: false }),
    ];
    const drafts = initialDrafts(settings);
    // a secret never starts with its value: it does not reach the browser
    expect(drafts).toEqual({ app_name: 'Orepanel', default_ram: '1024', smtp_pass: '', mail_enabled: false });
    expect(changedValues(settings, drafts)).toEqual({});
    expect(changedValues(settings, { ...drafts, default_ram: ' 2048 ', mail_enabled: true, smtp_pass: 'n3w' })).toEqual({
      default_ram: 2048,
      mail_enabled: true,
      smtp_pass: 'n3w',
    });
  });
});

describe('rendered pieces', () => {
  let root: Root;
  let container: HTMLElement;
  beforeEach(async () => {
    await i18n.changeLanguage('en');
    container = document.createElement('div');
    document.body.appendChild(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
  });

  function DateProbe({ value }: { value: string }) {
    return <span>{useDateTime()(value)}</span>;
  }

  it('formats a date in the interface language, and leaves text that is no date as it is', async () => {
    await act(async () => root.render(<DateProbe value="2026-03-12T14:05:00.000Z" />));
    expect(container.textContent).toBe(new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date('2026-03-12T14:05:00.000Z')));
    await act(async () => root.render(<DateProbe value="soon" />));
    expect(container.textContent).toBe('soon');
  });

  it('titles a load error "This could not be loaded." unless the screen names its own title', async () => {
    const error = new ApiError(500, 'SERVER_ERROR', 'boom');
    const state = (errorTitle?: string) => (
      <ResourceState data={undefined} loading={false} error={error} reload={() => {}} errorTitle={errorTitle}>
        {() => null}
      </ResourceState>
    );
    await act(async () => root.render(state()));
    expect(container.textContent).toContain('This could not be loaded.');
    await act(async () => root.render(state('The code could not be loaded.')));
    expect(container.textContent).toContain('The code could not be loaded.');
    expect(container.textContent).not.toContain('This could not be loaded.');
  });
});
