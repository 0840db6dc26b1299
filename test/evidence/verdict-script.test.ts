/**
 * The verification Jobs' script, run for real with sh and curl against local servers that answer as linkerd2-proxy
 * does (allowed, refused by the proxy, reached the app, connection dropped). A run on a cluster is not tested here.
 */
import { execFile } from 'child_process';
import * as http from 'http';
import * as http2 from 'http2';
import { AddressInfo } from 'net';
import * as net from 'net';
import { VERDICT_SCRIPT } from '../../src/workloads/verification/verdict-script';

interface Run { readonly code: number; readonly stdout: string }

function runScript(env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile('sh', ['-c', VERDICT_SCRIPT], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', VERIFY_TIMEOUT: '10', VERIFY_CALLER: 'mesh-lab/wrong-client', VERIFY_REQUEST: 'GET /', ...env },
    }, (error, stdout) => resolve({ code: error ? Number((error as any).code) : 0, stdout }));
  });
}

const listen = (server: net.Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
const close = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('verification script against an HTTP/1 server answering as the proxy', () => {
  let server: http.Server;
  let port = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      switch (req.url) {
        // SyntheticHttpResponse::permission_denied as a caller sees it: 403, content-length 0, nothing else.
        case '/refused': res.writeHead(403, { 'content-length': '0' }); res.end(); break;
        // The application's own 403 has a body and a content-type: the request reached the app.
        case '/app-forbidden': res.writeHead(403, { 'content-type': 'text/plain', 'content-length': '9' }); res.end('forbidden'); break;
        // The TCP policy closes an unauthorized connection without answering.
        case '/dropped': req.socket.destroy(); break;
        default: res.writeHead(200, { 'content-type': 'text/plain' }); res.end('v1\n');
      }
    });
    port = await listen(server);
  });
  afterAll(() => close(server));
  const url = (path: string) => `http://127.0.0.1:${port}${path}`;

  test.each([
    ['allowed', '/', 0, /^PASS expected allowed: .*HTTP 200: not refused by the proxy$/],
    ['refused', '/', 1, /^FAIL expected refused: mesh-lab\/wrong-client -> http:\/\/127\.0\.0\.1:\d+\/ \(GET \/\): HTTP 200: not refused/],
    ['refused', '/refused', 0, /^PASS expected refused: .*HTTP 403 with content-length 0 and no content-type: refused by the target's proxy$/],
    ['allowed', '/refused', 1, /^FAIL expected allowed: .*HTTP 403 with content-length 0/],
    ['refused', '/app-forbidden', 1, /^FAIL expected refused: .*HTTP 403: not refused by the proxy$/],
    ['allowed', '/app-forbidden', 0, /^PASS expected allowed: .*HTTP 403: not refused by the proxy$/],
    ['refused', '/dropped', 0, /^PASS expected refused: .*connection closed without a response \(curl exit 52\)/],
    ['allowed', '/dropped', 1, /^FAIL expected allowed: .*connection closed/],
  ])('expect %s, server answers %s: exit %d', async (expect_, path, code, line) => {
    const run = await runScript({ VERIFY_PROTOCOL: 'http', VERIFY_METHOD: 'GET', VERIFY_EXPECT: expect_, VERIFY_URL: url(path) });
    expect(run.stdout.split('\n').filter(Boolean)).toEqual([expect.stringMatching(line)]);
    expect(run.code).toBe(code);
  });

  test('a connection reset is a refusal (curl exit 56); nothing listening is no verdict either way', async () => {
    // The proxy reads the request (protocol detection) before the TCP policy drops the connection: a reset after data.
    const reset = net.createServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
    const resetPort = await listen(reset);
    try {
      const run = await runScript({ VERIFY_PROTOCOL: 'http', VERIFY_METHOD: 'GET', VERIFY_EXPECT: 'refused', VERIFY_URL: `http://127.0.0.1:${resetPort}/` });
      expect([run.code, run.stdout]).toEqual([0, expect.stringMatching(/^PASS expected refused: .*\(curl exit 5[26]\)/)]);
    } finally {
      await close(reset);
    }
    const nobody = await runScript({ VERIFY_PROTOCOL: 'http', VERIFY_METHOD: 'GET', VERIFY_EXPECT: 'refused', VERIFY_URL: `http://127.0.0.1:${resetPort}/` });
    expect([nobody.code, nobody.stdout]).toEqual([1, expect.stringMatching(/^FAIL expected refused: .*no answer \(curl exit 7: curl: \(7\)/)]);
  });
});

describe('verification script against an h2c gRPC server answering as the proxy', () => {
  let server: http2.Http2Server;
  let port = 0;
  const sessions = new Set<http2.ServerHttp2Session>();
  beforeAll(async () => {
    server = http2.createServer();
    server.on('session', (session) => {
      sessions.add(session);
      session.on('close', () => sessions.delete(session));
    });
    // Like the proxy, answer once the request (headers and its 5-byte message) is in.
    server.on('stream', (stream: http2.ServerHttp2Stream, headers) => {
      const path = String(headers[':path']);
      stream.resume();
      stream.on('end', () => {
        if (path.endsWith('/Refused')) {
          // permission_denied on a gRPC request: HTTP 200, grpc-status 7 in the headers, content-length 0, no body.
          stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '7', 'content-length': '0' }, { endStream: true });
          return;
        }
        // The application answers: a message, then grpc-status in the trailers (7 when it denies, 0 otherwise).
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': path.endsWith('/AppDenied') ? '7' : '0' }));
        stream.end(Buffer.from([0, 0, 0, 0, 0]));
      });
    });
    port = await listen(server as unknown as net.Server);
  });
  afterAll(() => {
    for (const session of sessions) session.destroy();
    return close(server as unknown as net.Server);
  });

  test.each([
    ['allowed', 'Get', 0, /^PASS expected allowed: .*HTTP 200, grpc-status 0: not refused by the proxy$/],
    ['refused', 'Refused', 0, /^PASS expected refused: .*grpc-status 7 \(PERMISSION_DENIED\) with content-length 0: refused by the target's proxy$/],
    ['allowed', 'Refused', 1, /^FAIL expected allowed: .*grpc-status 7/],
    ['refused', 'AppDenied', 1, /^FAIL expected refused: .*HTTP 200, grpc-status 7: not refused by the proxy$/],
  ])('expect %s, server answers %s: exit %d', async (expect_, method, code, line) => {
    const run = await runScript({ VERIFY_PROTOCOL: 'grpc', VERIFY_METHOD: 'POST', VERIFY_EXPECT: expect_, VERIFY_URL: `http://127.0.0.1:${port}/orders.Orders/${method}` });
    expect(run.stdout.split('\n').filter(Boolean)).toEqual([expect.stringMatching(line)]);
    expect(run.code).toBe(code);
  });
});
