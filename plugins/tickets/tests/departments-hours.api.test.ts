// Departments' opening hours on every dialect (the columns come by ALTER TABLE): stored and answered
// in the documented shape, bad hours refused with a 400 naming the field and nothing changed,
// customers see the hours of the departments that take tickets, and a ticket can still be opened
// while the department is closed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';
import { ManualClock } from '../../../tests/fixtures/manual-clock';

const DEPARTMENTS = '/api/admin/departments';
const MINE = '/api/user/tickets';

const CLOSED_WEEK = { mon: null, tue: null, wed: null, thu: null, fri: null, sat: null, sun: null };
const OFFICE = {
  time_zone: 'Europe/Bucharest',
  days: { ...CLOSED_WEEK, mon: { from: '09:00', to: '17:00' }, tue: { from: '09:00', to: '17:00' }, sat: { from: '10:00', to: '24:00' } },
};

describe.each(testDialects())('department opening hours on %s', (dialect) => {
  let panel: TestPanel;
  let root: SignedInUser;

  type Method = 'GET' | 'POST' | 'PATCH';
  const call = (who: SignedInUser, method: Method, url: string, payload?: Record<string, unknown>) => panel.app.inject({ method, url, payload, headers: { cookie: who.cookie } });

  beforeAll(async () => {
    // a Sunday: every department below is closed
    panel = await startPanel(dialect, { jobs: false, clock: new ManualClock(Date.parse('2030-07-07T12:00:00.000Z')) });
    root = await userWithRole(panel, 8);
  });
  afterAll(async () => {
    await panel?.close();
  });

  it('stores the hours and the note, and answers them to staff and customers', async () => {
    const created = await call(root, 'POST', DEPARTMENTS, { name: 'Office', hours: OFFICE, hours_note: '  Closed on public holidays.  ' });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().department.id;
    expect(created.json().department).toMatchObject({ hours: OFFICE, hours_note: 'Closed on public holidays.' });
    expect((await call(root, 'GET', `${DEPARTMENTS}/${id}`)).json().department.hours).toEqual(OFFICE);

    // a department without hours states none
    const plain = (await call(root, 'POST', DEPARTMENTS, { name: 'No hours' })).json().department;
    expect(plain).toMatchObject({ hours: null, hours_note: '' });

    const customer = await userWithRole(panel, 1);
    const open = (await call(customer, 'GET', `${MINE}/departments`)).json().data;
    expect(open.find((d: { id: number }) => d.id === id)).toEqual({ id, name: 'Office', description: '', hours: OFFICE, hours_note: 'Closed on public holidays.' });
    expect(open.find((d: { id: number }) => d.id === plain.id)).toMatchObject({ hours: null, hours_note: '' });

    // closed on Sundays, yet a ticket can be opened (the page says replies may take longer)
    const ticket = await call(customer, 'POST', MINE, { department_id: id, subject: 'Weekend trouble', message: 'Help' });
    expect(ticket.statusCode, ticket.body).toBe(201);

    // changing the hours only; then removing them
    const evenings = { time_zone: 'UTC', days: { ...CLOSED_WEEK, fri: { from: '18:00', to: '22:30' } } };
    const changed = (await call(root, 'PATCH', `${DEPARTMENTS}/${id}`, { hours: evenings })).json().department;
    expect(changed).toMatchObject({ hours: evenings, hours_note: 'Closed on public holidays.', name: 'Office' });
    expect((await call(root, 'PATCH', `${DEPARTMENTS}/${id}`, { hours: null, hours_note: '' })).json().department).toMatchObject({ hours: null, hours_note: '' });
  });

  it('refuses bad hours with a 400 naming the field, and changes nothing', async () => {
    const id = (await call(root, 'POST', DEPARTMENTS, { name: 'Strict', hours: OFFICE })).json().department.id;
    const bad: [Record<string, unknown>, string, string][] = [
      [{ ...OFFICE, time_zone: 'Mars/Olympus' }, 'UNKNOWN_TIME_ZONE', 'hours.time_zone'],
      [{ ...OFFICE, time_zone: '+01:00' }, 'VALIDATION_ERROR', 'hours.time_zone'],
      [{ ...OFFICE, days: { ...OFFICE.days, wed: { from: '17:00', to: '09:00' } } }, 'VALIDATION_ERROR', 'hours.days.wed'],
      [{ ...OFFICE, days: { ...OFFICE.days, thu: { from: '09:00', to: '09:00' } } }, 'VALIDATION_ERROR', 'hours.days.thu'],
      [{ ...OFFICE, days: { ...OFFICE.days, mon: { from: '9:00', to: '17:00' } } }, 'VALIDATION_ERROR', 'hours.days.mon.from'],
      [{ ...OFFICE, days: { ...OFFICE.days, mon: { from: '09:00', to: '24:30' } } }, 'VALIDATION_ERROR', 'hours.days.mon.to'],
      [{ ...OFFICE, days: { ...OFFICE.days, mon: { from: '09:00', to: '25:00' } } }, 'VALIDATION_ERROR', 'hours.days.mon.to'],
    ];
    for (const [hours, code, field] of bad) {
      const res = await call(root, 'PATCH', `${DEPARTMENTS}/${id}`, { hours, name: 'Renamed' });
      expect(res.statusCode, JSON.stringify(hours)).toBe(400);
      expect(res.json().error, JSON.stringify(hours)).toMatchObject({ code, field });
    }
    // a missing day, an unknown day, an extra field: refused by the schema
    const { sun: _sun, ...sixDays } = OFFICE.days;
    for (const hours of [{ ...OFFICE, days: sixDays }, { ...OFFICE, days: { ...OFFICE.days, xyz: null } }, { ...OFFICE, extra: 1 }, { days: OFFICE.days }]) {
      expect((await call(root, 'PATCH', `${DEPARTMENTS}/${id}`, { hours })).statusCode, JSON.stringify(hours)).toBe(400);
    }
    expect((await call(root, 'PATCH', `${DEPARTMENTS}/${id}`, { hours_note: 'x'.repeat(256) })).statusCode).toBe(400);
    expect((await call(root, 'GET', `${DEPARTMENTS}/${id}`)).json().department).toMatchObject({ name: 'Strict', hours: OFFICE });
    const refusedCreate = await call(root, 'POST', DEPARTMENTS, { name: 'Never made', hours: { ...OFFICE, time_zone: 'Nowhere/Land' } });
    expect(refusedCreate.json().error).toMatchObject({ code: 'UNKNOWN_TIME_ZONE', field: 'hours.time_zone' });
    expect((await call(root, 'GET', DEPARTMENTS)).json().data.map((d: { name: string }) => d.name)).not.toContain('Never made');
  });
});
