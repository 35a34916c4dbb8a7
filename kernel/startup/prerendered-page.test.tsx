// @vitest-environment jsdom
// The kernel's takeover of a pre-rendered page (issue 15): the app renders beside the server's page and
// replaces it once it shows a page, with what the visitor typed, the focus and the caret carried over.
import { act, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { kernelEvents } from '../../sdk/client/events';
import { Form, TextField } from '../../sdk/client/ui/form';
import { setHttpFetch, useApi } from '../../sdk/client/http';
import { prerenderedPage, showsPage, swapPages, takeOverPage } from './prerendered-page';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const serverPage = `
  <div data-page-transition="fade"><form method="post">
    <input name="login" autofocus><input name="password" type="password"><input name="remember" type="checkbox">
  </form></div>`;

function serve(attributes = ' data-prerendered="/auth/login"', extra = ''): HTMLElement {
  document.body.innerHTML = `<div id="app"${attributes}>${serverPage}${extra}</div>`;
  return document.getElementById('app') as HTMLElement;
}

function ControlledPage() {
  const [login, setLogin] = useState('');
  return (
    <div data-page-transition="fade">
      <Form onSubmit={() => undefined}>
        <TextField label="Login" name="login" value={login} onChange={setLogin} />
        <TextField label="Password" name="password" type="password" />
        <input name="remember" type="checkbox" />
        <output data-testid="echo">{login}</output>
      </Form>
    </div>
  );
}

afterEach(() => {
  document.body.innerHTML = '';
  setHttpFetch(null);
});

describe('takeOverPage', () => {
  it('mounts into #app itself when it holds no pre-rendered page', () => {
    const host = serve('');
    expect(takeOverPage(document, host).container).toBe(host);
  });

  it('mounts into a copy of #app outside the document while the server page stays', () => {
    const host = serve();
    const { container } = takeOverPage(document, host);
    expect(container).not.toBe(host);
    expect(container.id).toBe('app');
    expect(container.hasAttribute('data-prerendered')).toBe(false);
    expect(container.isConnected).toBe(false);
    expect(document.getElementById('app')).toBe(host);
  });
});

describe('the swap', () => {
  it('happens once the app shows a page, carrying the typed text (into React state too), the checkbox, the focus and the caret', async () => {
    const host = serve();
    const login = host.querySelector<HTMLInputElement>('input[name=login]') as HTMLInputElement;
    const password = host.querySelector<HTMLInputElement>('input[name=password]') as HTMLInputElement;
    login.value = 'early-bird';
    password.value = 'abcdef';
    (host.querySelector('input[name=remember]') as HTMLInputElement).checked = true;
    password.focus();
    password.setSelectionRange(2, 4);

    const page = prerenderedPage(document);
    expect(page).not.toBeNull();
    const root = createRoot(page?.container as HTMLElement);
    // a loading state is not a page: the server's page stays
    await act(async () => root.render(<div data-plugin-loading="auth" />));
    expect(host.isConnected).toBe(true);
    await act(async () => root.render(page?.wrap(<ControlledPage />)));
    await page?.swapped;

    const app = document.getElementById('app') as HTMLElement;
    expect(app).toBe(page?.container);
    expect(host.isConnected).toBe(false);
    expect((app.querySelector('input[name=login]') as HTMLInputElement).value).toBe('early-bird');
    // the controlled field's React state followed
    expect(app.querySelector('[data-testid=echo]')?.textContent).toBe('early-bird');
    expect((app.querySelector('input[name=remember]') as HTMLInputElement).checked).toBe(true);
    const focused = document.activeElement as HTMLInputElement;
    expect(focused.name).toBe('password');
    expect(focused.value).toBe('abcdef');
    expect([focused.selectionStart, focused.selectionEnd]).toEqual([2, 4]);
    act(() => root.unmount());
  });

  it('gives the refused form its error until the visitor leaves the page', async () => {
    serve(
      ' data-prerendered="/auth/login"',
      '<script type="application/json" id="op-prerender-form">{"error":{"status":401,"code":"INVALID_CREDENTIALS","message":"Invalid username/email or password."},"values":{}}</script>',
    );
    const page = prerenderedPage(document);
    const root = createRoot(page?.container as HTMLElement);
    await act(async () => root.render(page?.wrap(<ControlledPage />)));
    await page?.swapped;
    expect(document.querySelector('[role=alert]')?.textContent).toContain('Invalid username/email or password.');
    act(() => kernelEvents.emit('navigation', { pathname: '/auth/register', search: '', hash: '', from: '/auth/login' }));
    // a form mounted after the visitor left starts clean
    await act(async () => root.render(page?.wrap(<ControlledPage key="next" />)));
    expect(document.querySelector('[role=alert]')).toBeNull();
    act(() => root.unmount());
  });

  it('draws the mounted page with the answers the server drew it with, and stops handing them out after the swap', async () => {
    const asked: string[] = [];
    setHttpFetch((url) => {
      asked.push(url);
      return new Promise(() => undefined);
    });
    const data = `<script type="application/json" id="op-prerender-data">${JSON.stringify({ '/api/legal/terms-of-service': { content: 'Be kind.' } })}</script>`;
    serve(' data-prerendered="/terms-of-service"', data);
    function Terms() {
      const { data: answer, loading } = useApi<{ content: string }>('/api/legal/terms-of-service');
      return <div data-page-transition="fade">{loading ? 'loading' : answer?.content}</div>;
    }
    const page = prerenderedPage(document);
    const root = createRoot(page?.container as HTMLElement);
    await act(async () => root.render(page?.wrap(<Terms />)));
    await page?.swapped;
    expect(document.getElementById('app')?.textContent).toBe('Be kind.');
    expect(asked).toEqual([]);
    // the next visit of the page (a later mount) asks the server
    const later = createRoot(document.createElement('div'));
    await act(async () => later.render(<Terms />));
    expect(asked).toEqual(['/api/legal/terms-of-service']);
    act(() => later.unmount());
    act(() => root.unmount());
  });

  it('waits no longer than its limit for a page', async () => {
    const host = serve();
    const page = prerenderedPage(document, 10);
    await page?.swapped;
    expect(host.isConnected).toBe(false);
  });

  it('showsPage: a page frame with nothing of it still loading', () => {
    const box = document.createElement('div');
    expect(showsPage(box)).toBe(false);
    box.innerHTML = '<div data-page-transition="fade"><div data-plugin-loading="x"></div></div>';
    expect(showsPage(box)).toBe(false);
    box.innerHTML = '<div data-page-transition="fade"><main></main></div>';
    expect(showsPage(box)).toBe(true);
  });

  it('swapPages leaves a file input alone and moves nothing between forms of another shape', () => {
    const old = serve();
    const next = document.createElement('div');
    next.innerHTML = '<form><input name="other"></form>';
    (old.querySelector('input[name=login]') as HTMLInputElement).value = 'x';
    swapPages(old, next, document);
    expect(next.isConnected).toBe(true);
    expect((next.querySelector('input[name=other]') as HTMLInputElement).value).toBe('');
  });
});
