/**
 * Where the read-only reference data lives: `../shared` beside the checkout (as in CI), or $CDK8S_LINKERD_SHARED.
 * Tests read it in place; nothing from it is ever copied into this repository.
 */
import * as fs from 'fs';
import * as path from 'path';

export const SHARED_DIR = process.env.CDK8S_LINKERD_SHARED ?? path.resolve(__dirname, '..', '..', '..', 'shared');

/** True when ../shared is present. Under CI its absence is a failure, never a skip. */
export function sharedAvailable(): boolean {
  const present = fs.existsSync(path.join(SHARED_DIR, 'reference'));
  if (!present && process.env.CI) {
    throw new Error(`CI requires the reference data at ${SHARED_DIR} (set CDK8S_LINKERD_SHARED to override)`);
  }
  return present;
}

export function sharedPath(...parts: string[]): string {
  return path.join(SHARED_DIR, ...parts);
}

export const LINKERD_CRDS = sharedPath('reference', 'linkerd', 'version-2.20', 'crds');
export const GATEWAY_API_CRDS = sharedPath('reference', 'gateway-api', 'v1.2.1');
export const ROUTE_CASES = sharedPath('conformance', 'gateway-api-route-cases.json');
export const CHART_DIR = sharedPath('reference', 'linkerd', 'version-2.20', 'chart');

/** `describe` that runs only when the reference data exists (and throws under CI when it does not). */
export const describeWithShared: jest.Describe = sharedAvailable() ? describe : describe.skip;
