// A real websocket client for the AFK socket tests (the `ws` library, as a script or a browser would
// connect): it records every state message and can wait for the answer to each message it sent.
import WebSocket from 'ws';
import { AFK_SOCKET_PATH, type AfkStateMessage } from '../shared/protocol';

export interface Refusal {
  status: number;
  body: string;
}

export class AfkTestSocket {
  readonly states: AfkStateMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private sent = 0;
  private waiters: Array<() => void> = [];

  private constructor(readonly socket: WebSocket) {
    // a reset connection shows up as the close below; without a listener ws would throw
    socket.on('error', () => undefined);
    socket.on('message', (data) => {
      this.states.push(JSON.parse(String(data)) as AfkStateMessage);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
    this.closed.then(() => {
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Opens the socket; rejects with a Refusal when the upgrade is answered with an HTTP error. */
  static connect(baseUrl: string, cookie: string | null, headers: Record<string, string> = {}): Promise<AfkTestSocket> {
    const url = baseUrl.replace(/^http/, 'ws') + AFK_SOCKET_PATH;
    const socket = new WebSocket(url, { headers: { ...(cookie ? { cookie } : {}), ...headers } });
    return new Promise((resolve, reject) => {
      socket.once('open', async () => {
        const client = new AfkTestSocket(socket);
        // the server greets with the state once it has resolved the session
        await client.waitFor(() => client.states.length > 0, 'the first state');
        resolve(client);
      });
      socket.once('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => reject(Object.assign(new Error(`refused with ${response.statusCode}`), { status: response.statusCode, body })));
      });
      socket.once('close', (code, reason) => reject(Object.assign(new Error(`closed ${code} ${String(reason)}`), { code })));
      socket.once('error', reject);
    });
  }

  get last(): AfkStateMessage {
    return this.states[this.states.length - 1];
  }

  /** Sends a heartbeat and resolves with the state that answers it. */
  beat(visible = true): Promise<AfkStateMessage> {
    return this.send({ type: 'heartbeat', visible });
  }

  takeover(): Promise<AfkStateMessage> {
    return this.send({ type: 'takeover' });
  }

  async send(message: unknown): Promise<AfkStateMessage> {
    const n = ++this.sent;
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
    await this.waitFor(() => this.states.some((s) => s.handled >= n), `the answer to message ${n}`);
    return this.last;
  }

  /** Resolves once `check` holds (re-checked at every message); fails after `ms` of real time. */
  async waitFor(check: () => boolean, what: string, ms = 5_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (this.socket.readyState === WebSocket.CLOSED) throw new Error(`socket closed while waiting for ${what}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; last state: ${JSON.stringify(this.last)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 50));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): Promise<{ code: number; reason: string }> {
    this.socket.close();
    return this.closed;
  }
}

/** The refusal an upgrade attempt got (fails the test if the socket opened). */
export async function refusal(attempt: Promise<AfkTestSocket>): Promise<Refusal> {
  try {
    const socket = await attempt;
    await socket.close();
  } catch (error) {
    const e = error as { status?: number; body?: string };
    if (e.status) return { status: e.status, body: e.body ?? '' };
    throw error;
  }
  throw new Error('the socket opened');
}
