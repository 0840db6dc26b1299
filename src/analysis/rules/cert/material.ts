/**
 * Where a manifest set carries Linkerd's identity certificates, as (anchors, issuer) pairs so the LKD-CERT rules stay
 * small: the trust-roots ConfigMap, the issuer Secret (either scheme) and the control-plane chart values inside
 * Argo CD Applications and Flux HelmReleases.
 */
import * as yaml from 'js-yaml';
import {
  CertificateBundle, ISSUER_SECRET, ParsedCertificate, TRUST_ROOTS_CONFIGMAP, TRUST_ROOTS_KEY, parseCertificateBundle,
} from '../../../core/certificates';
import { deepMerge } from '../../../core/helm-values';
import { setOwnPath } from '../../../core/own-keys';
import { isRecord } from '../../../util/json';
import { perIndex } from '../../model/memo';
import { IndexedObject, MeshIndex } from '../../model/mesh-index';

/** One PEM text found in an object. */
export interface PemField {
  /** Where it is, for messages: e.g. `data['ca-bundle.crt']`. */
  readonly label: string;
  readonly text: string;
  /** Read from another object (the trust roots beside an issuer Secret); per-field rules leave it to its owner. */
  readonly borrowed: boolean;
  /**
   * How linkerd-identity reads these anchors at start: as the trust-roots file as written, or as the chart writes the
   * value into it (trimmed); undefined for certificates it does not read so.
   */
  readonly identityReads?: 'as written' | 'trimmed';
}

/** The certificates one object carries: anchors, an issuer, or both. */
export interface TrustMaterial {
  readonly subject: IndexedObject;
  readonly anchors?: PemField;
  readonly issuer?: PemField;
}

export const ARGO_GROUP = 'argoproj.io';
export const FLUX_HELM_GROUP = 'helm.toolkit.fluxcd.io';

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

function decodeBase64(value: unknown): string | undefined {
  return typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : undefined;
}

/** A Secret value: `stringData` wins over `data` (as the API server merges them). */
export function secretValue(secret: IndexedObject, key: string): string | undefined {
  const plain = secret.object.stringData?.[key];
  return nonEmpty(plain) ? plain : decodeBase64(secret.object.data?.[key]);
}

function field(label: string, text: unknown, borrowed = false, identityReads?: PemField['identityReads']): PemField | undefined {
  return nonEmpty(text) ? { label, text, borrowed, ...(identityReads ? { identityReads } : {}) } : undefined;
}

function trustRootsIn(index: MeshIndex, namespace: string | undefined): IndexedObject | undefined {
  return index.get('', 'ConfigMap', namespace, TRUST_ROOTS_CONFIGMAP);
}

function configMapMaterial(configMap: IndexedObject): TrustMaterial {
  return { subject: configMap, anchors: field(`data['${TRUST_ROOTS_KEY}']`, configMap.object.data?.[TRUST_ROOTS_KEY], false, 'as written') };
}

/** kubernetes.io/tls carries its own anchors in ca.crt; linkerd.io/tls (crt.pem) relies on the trust-roots ConfigMap. */
function secretMaterial(index: MeshIndex, secret: IndexedObject): TrustMaterial {
  const k8sIssuer = secretValue(secret, 'tls.crt');
  const issuer = nonEmpty(k8sIssuer) ? field("Secret key 'tls.crt'", k8sIssuer) : field("Secret key 'crt.pem'", secretValue(secret, 'crt.pem'));
  let anchors = field("Secret key 'ca.crt'", secretValue(secret, 'ca.crt'));
  if (!anchors) {
    const roots = trustRootsIn(index, secret.id.namespace);
    anchors = roots && field(`ConfigMap ${TRUST_ROOTS_CONFIGMAP} data['${TRUST_ROOTS_KEY}']`, roots.object.data?.[TRUST_ROOTS_KEY], true);
  }
  return { subject: secret, anchors, issuer };
}


function parseValuesString(text: unknown): Record<string, any> {
  if (isRecord(text)) return text;
  if (typeof text !== 'string') return {};
  try {
    const parsed = yaml.load(text);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** Argo CD's precedence: `values` < `valuesObject` < `parameters`. */
function argoHelmValues(helm: unknown): Record<string, any> {
  if (!isRecord(helm)) return {};
  // Keys and parameter names are the input's: merged and set as own properties only (no Object.prototype paths).
  const values = deepMerge(parseValuesString(helm.values), isRecord(helm.valuesObject) ? helm.valuesObject : undefined);
  for (const p of Array.isArray(helm.parameters) ? helm.parameters : []) {
    if (isRecord(p) && typeof p.name === 'string') setOwnPath(values, p.name.split('.'), p.value);
  }
  return values;
}

/** Helm values of an object, with the path they were read from; empty for kinds that carry none. */
export function helmValuesOf(entry: IndexedObject): Array<{ path: string; values: Record<string, any> }> {
  const spec = entry.object.spec;
  if (!isRecord(spec)) return [];
  if (entry.group === FLUX_HELM_GROUP && entry.id.kind === 'HelmRelease') {
    return isRecord(spec.values) ? [{ path: 'spec.values', values: spec.values }] : [];
  }
  if (entry.group !== ARGO_GROUP || entry.id.kind !== 'Application') return [];
  const found: Array<{ path: string; values: Record<string, any> }> = [];
  if (isRecord(spec.source)) found.push({ path: 'spec.source.helm', values: argoHelmValues(spec.source.helm) });
  (Array.isArray(spec.sources) ? spec.sources : []).forEach((source: unknown, i: number) => {
    if (isRecord(source)) found.push({ path: `spec.sources[${i}].helm`, values: argoHelmValues(source.helm) });
  });
  return found;
}

function valuesMaterials(entry: IndexedObject): TrustMaterial[] {
  const materials: TrustMaterial[] = [];
  for (const { path, values } of helmValuesOf(entry)) {
    // identity.yaml writes `identityTrustAnchorsPEM | trim` into the trust-roots ConfigMap.
    const anchors = field(`${path} value identityTrustAnchorsPEM`, values.identityTrustAnchorsPEM, false, 'trimmed');
    const issuer = field(`${path} value identity.issuer.tls.crtPEM`, values.identity?.issuer?.tls?.crtPEM);
    if (anchors || issuer) materials.push({ subject: entry, anchors, issuer });
  }
  return materials;
}

/** Whether `helmValuesOf` can find values in an object of this kind; decided from the index entry alone. */
function mayCarryHelmValues(entry: IndexedObject): boolean {
  return (entry.group === FLUX_HELM_GROUP && entry.id.kind === 'HelmRelease') || (entry.group === ARGO_GROUP && entry.id.kind === 'Application');
}

function findTrustMaterials(index: MeshIndex): TrustMaterial[] {
  const materials: TrustMaterial[] = [];
  for (const entry of index.objects) {
    if (entry.inventory) continue;
    if (entry.group === '' && entry.id.kind === 'ConfigMap' && entry.id.name === TRUST_ROOTS_CONFIGMAP) materials.push(configMapMaterial(entry));
    else if (entry.group === '' && entry.id.kind === 'Secret' && entry.id.name === ISSUER_SECRET) materials.push(secretMaterial(index, entry));
    // Checking the kind first keeps the scan off the manifests themselves: almost no object carries Helm values.
    else if (mayCarryHelmValues(entry)) materials.push(...valuesMaterials(entry));
  }
  return materials.filter((m) => m.anchors || m.issuer);
}

/**
 * Every place in this output (not the inventory) that carries identity certificates. Four certificate rules ask; the
 * objects are scanned (and the values parsed) once per index. Shared: do not modify.
 */
export const trustMaterials: (index: MeshIndex) => readonly TrustMaterial[] = perIndex(findTrustMaterials);

/** A field's parsed bundle; the fields of memoized materials are parsed once, whichever rules ask. */
const bundles = new WeakMap<PemField, CertificateBundle>();

export function bundleOf(pem: PemField): CertificateBundle {
  let bundle = bundles.get(pem);
  if (!bundle) {
    bundle = parseCertificateBundle(pem.text);
    bundles.set(pem, bundle);
  }
  return bundle;
}

/** Parsed certificates of a field, or [] when it does not parse (LKD-CERT-001 reports that). */
export function certificatesOf(pem: PemField | undefined): ParsedCertificate[] {
  return pem ? bundleOf(pem).certificates : [];
}

/** The issuer of a field: its first certificate (a chain may follow it). */
export function issuerOf(pem: PemField | undefined): ParsedCertificate | undefined {
  return certificatesOf(pem)[0];
}

/** The fields an object owns, each with the role its certificates play. */
export function ownFields(material: TrustMaterial): Array<{ pem: PemField; role: 'trust anchor' | 'issuer' }> {
  const fields: Array<{ pem: PemField; role: 'trust anchor' | 'issuer' }> = [];
  if (material.anchors && !material.anchors.borrowed) fields.push({ pem: material.anchors, role: 'trust anchor' });
  if (material.issuer && !material.issuer.borrowed) fields.push({ pem: material.issuer, role: 'issuer' });
  return fields;
}
