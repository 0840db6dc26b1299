import { widget, widgetCrd, widgetValidator } from './inline-crd';
import { ConformanceIssue, ConformanceValidator, CrdCatalog, JsonSchema } from '../../src/conformance';

const obj = (properties: Record<string, JsonSchema>, extra: Partial<JsonSchema> = {}): JsonSchema => ({ type: 'object', properties, ...extra });
const paths = (issues: ConformanceIssue[]) => issues.map(i => i.path);
const rules = (issues: ConformanceIssue[]) => issues.map(i => i.rule);

describe('types', () => {
  const v = widgetValidator(obj({
    count: { type: 'integer' },
    ratio: { type: 'number' },
    on: { type: 'boolean' },
    name: { type: 'string' },
    list: { type: 'array', items: { type: 'string' } },
    nested: obj({ a: { type: 'string' } }),
  }));

  test('values of the declared types pass', () => {
    expect(v.validate(widget({ count: 3, ratio: 0.5, on: true, name: 'x', list: ['a'], nested: { a: 'b' } }))).toEqual([]);
  });

  test('a whole number is a valid "number"', () => {
    expect(v.validate(widget({ ratio: 2 }))).toEqual([]);
  });

  test.each([
    ['count', 1.5, 'integer'],
    ['count', '3', 'integer'],
    ['ratio', 'x', 'number'],
    ['on', 'true', 'boolean'],
    ['name', 7, 'string'],
    ['list', 'a', 'array'],
    ['nested', ['a'], 'object'],
  ])('%s = %j is a type error', (field, value, type) => {
    const issues = v.validate(widget({ [field]: value }));
    expect(issues[0]).toMatchObject({ path: `spec.${field}`, rule: 'type' });
    expect(issues[0].message).toContain(`must be of type ${type}`);
  });

  test('issues carry the object identity', () => {
    const [issue] = v.validate(widget({ count: 'x' }, 'my-widget'));
    expect(issue).toMatchObject({ apiVersion: 'test.example.com/v1', kind: 'Widget', namespace: 'default', name: 'my-widget' });
  });

  test('items are checked with an index in the path', () => {
    expect(paths(v.validate(widget({ list: ['a', 2, 'c', false] })))).toEqual(['spec.list[1]', 'spec.list[3]']);
  });
});

describe('x-kubernetes-int-or-string', () => {
  // The same shape Linkerd's ServiceProfile uses: anyOf + a pattern meant for the string form.
  const v = widgetValidator(obj({
    port: { 'x-kubernetes-int-or-string': true },
    weight: { 'x-kubernetes-int-or-string': true, 'anyOf': [{ type: 'integer' }, { type: 'string' }], 'pattern': '^[0-9]+m?$' },
  }));

  test.each([[8080], ['http']])('port %j is accepted', port => {
    expect(v.validate(widget({ port }))).toEqual([]);
  });

  test.each([[1.5], [true], [{}]])('port %j is rejected', port => {
    expect(rules(v.validate(widget({ port })))).toContain('type');
  });

  test('pattern applies to the string form only', () => {
    expect(v.validate(widget({ weight: 100 }))).toEqual([]);
    expect(v.validate(widget({ weight: '500m' }))).toEqual([]);
    expect(v.validate(widget({ weight: 'heavy' }))).toMatchObject([{ path: 'spec.weight', rule: 'pattern' }]);
  });
});

describe('unknown fields and preserve-unknown-fields', () => {
  const v = widgetValidator(obj({
    known: { type: 'string' },
    free: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true },
    deep: obj({ inner: obj({ leaf: { type: 'string' } }) }),
  }));

  test('an undeclared field is reported and pruned', () => {
    const result = v.check(widget({ known: 'a', extra: 1, deep: { inner: { leaf: 'x', typo: 2 } } }));
    expect(result.issues).toMatchObject([
      { path: 'spec.extra', message: 'unknown field "extra"', rule: 'unknown field' },
      { path: 'spec.deep.inner.typo', message: 'unknown field "typo"', rule: 'unknown field' },
    ]);
    expect(result.defaulted?.spec).toEqual({ known: 'a', deep: { inner: { leaf: 'x' } } });
  });

  test('anything goes under x-kubernetes-preserve-unknown-fields', () => {
    const result = v.check(widget({ free: { any: { nested: [1, 'two'] } } }));
    expect(result.issues).toEqual([]);
    expect(result.defaulted?.spec).toEqual({ free: { any: { nested: [1, 'two'] } } });
  });

  test('an embedded resource keeps its own apiVersion/kind/metadata', () => {
    const embedded = widgetValidator(obj({
      template: obj({ data: { type: 'string' } }, { 'x-kubernetes-embedded-resource': true }),
    }));
    const template = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: 'x' };
    expect(embedded.validate(widget({ template }))).toEqual([]);
    expect(embedded.validate(widget({ template: { ...template, extra: 1 } }))).toMatchObject([{ path: 'spec.template.extra', rule: 'unknown field' }]);
  });

  test('unknown top-level fields are reported too, apiVersion/kind/metadata are not', () => {
    expect(v.validate({ ...widget({}), status2: {} })).toMatchObject([{ path: 'status2', rule: 'unknown field' }]);
  });
});

describe('value keywords', () => {
  const v = widgetValidator(obj({
    mode: { type: 'string', enum: ['Fast', 'Slow'] },
    id: { type: 'string', pattern: '^[a-z]+$' },
    svc: { type: 'string', pattern: '(?i)^[a-z]+$' },
    short: { type: 'string', minLength: 2, maxLength: 3 },
    when: { type: 'string', format: 'date-time' },
    wait: { type: 'string', format: 'duration' },
    width: { type: 'integer', format: 'int32' },
    pct: { type: 'integer', minimum: 0, maximum: 100 },
    open: { type: 'number', minimum: 0, maximum: 1, exclusiveMinimum: true, exclusiveMaximum: true },
    few: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 2 },
    props: { type: 'object', additionalProperties: { type: 'string' }, minProperties: 1, maxProperties: 2 },
  }));

  test('conforming values pass', () => {
    expect(v.validate(widget({
      mode: 'Fast',
      id: 'abc',
      svc: 'ABC',
      short: 'ab',
      when: '2024-05-01T10:00:00Z',
      wait: '1h30m',
      width: 2 ** 40,
      pct: 100,
      open: 0.5,
      few: ['a'],
      props: { a: 'b' },
    }))).toEqual([]);
  });

  test.each([
    ['mode', 'fast', 'enum'],
    ['id', 'ABC', 'pattern'],
    ['svc', 'a-b', 'pattern'],
    ['short', 'a', 'minLength'],
    ['short', 'abcd', 'maxLength'],
    ['when', 'yesterday', 'format'],
    ['wait', '10 parsecs', 'format'],
    ['pct', -1, 'minimum'],
    ['pct', 101, 'maximum'],
    ['open', 0, 'minimum'],
    ['open', 1, 'maximum'],
    ['few', [], 'minItems'],
    ['few', ['a', 'b', 'c'], 'maxItems'],
    ['props', {}, 'minProperties'],
    ['props', { a: 'a', b: 'b', c: 'c' }, 'maxProperties'],
  ])('%s = %j violates %s', (field, value, keyword) => {
    expect(v.validate(widget({ [field]: value }))).toMatchObject([{ path: `spec.${field}`, rule: keyword }]);
  });

  test('lengths count characters, not UTF-16 units', () => {
    expect(v.validate(widget({ short: '🚀🚀🚀' }))).toEqual([]);
  });

  test('the enum message lists the supported values', () => {
    expect(v.validate(widget({ mode: 'Medium' }))[0].message).toBe('Unsupported value: "Medium": supported values: "Fast", "Slow"');
  });

  test('map values are validated with the key in the path', () => {
    expect(v.validate(widget({ props: { good: 'x', bad: 3 } }))).toMatchObject([{ path: 'spec.props[bad]', rule: 'type' }]);
  });
});

describe('combinators', () => {
  const v = widgetValidator(obj({
    choice: obj({ a: { type: 'string' }, b: { type: 'string' } }, { oneOf: [{ required: ['a'] }, { required: ['b'] }] }),
    either: obj({ a: { type: 'string' }, b: { type: 'string' } }, { anyOf: [{ required: ['a'] }, { required: ['b'] }] }),
    both: { type: 'string', allOf: [{ minLength: 2 }, { pattern: '^x' }] },
    never: { type: 'string', not: { enum: ['forbidden'] } },
  }));

  test('oneOf needs exactly one matching branch', () => {
    expect(v.validate(widget({ choice: { a: '1' } }))).toEqual([]);
    expect(v.validate(widget({ choice: { a: '1', b: '2' } }))).toMatchObject([{ path: 'spec.choice', rule: 'oneOf' }]);
    expect(v.validate(widget({ choice: {} }))).toMatchObject([{ path: 'spec.choice', rule: 'oneOf' }]);
  });

  test('anyOf needs at least one', () => {
    expect(v.validate(widget({ either: { a: '1', b: '2' } }))).toEqual([]);
    expect(v.validate(widget({ either: {} }))).toMatchObject([{ path: 'spec.either', rule: 'anyOf' }]);
  });

  test('allOf applies every branch', () => {
    expect(v.validate(widget({ both: 'xy' }))).toEqual([]);
    expect(rules(v.validate(widget({ both: 'y' })))).toEqual(['minLength', 'pattern']);
  });

  test('not rejects what its branch accepts', () => {
    expect(v.validate(widget({ never: 'fine' }))).toEqual([]);
    expect(v.validate(widget({ never: 'forbidden' }))).toMatchObject([{ path: 'spec.never', rule: 'not' }]);
  });
});

describe('required', () => {
  const v = widgetValidator(obj({ parent: obj({ name: { type: 'string' }, port: { type: 'integer' } }, { required: ['name', 'port'] }) }), {}, { required: ['spec'] });

  test('missing required fields are reported at their own path', () => {
    expect(v.validate(widget({ parent: { port: 1 } }))).toMatchObject([{ path: 'spec.parent.name', message: 'Required value', rule: 'required' }]);
  });

  test('a required spec must be present', () => {
    const { spec: _spec, ...noSpec } = widget({});
    expect(v.validate(noSpec)).toMatchObject([{ path: 'spec', rule: 'required' }]);
  });
});

describe('list types', () => {
  const v = widgetValidator(obj({
    headers: {
      'type': 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      'items': obj({ name: { type: 'string' }, value: { type: 'string' } }, { required: ['name'] }),
    },
    ports: {
      'type': 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['port', 'protocol'],
      'items': obj({ port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } }, { required: ['port'] }),
    },
    tags: { 'type': 'array', 'x-kubernetes-list-type': 'set', 'items': { type: 'string' } },
  }));

  test('list-map keys must be unique', () => {
    const issues = v.validate(widget({ headers: [{ name: 'x-a', value: '1' }, { name: 'x-b' }, { name: 'x-a', value: '2' }] }));
    expect(issues).toMatchObject([{ path: 'spec.headers[2]', rule: 'x-kubernetes-list-map-keys' }]);
    expect(issues[0].message).toBe('Duplicate value: {"name":"x-a"}');
  });

  test('list-map keys compare case-sensitively', () => {
    expect(v.validate(widget({ headers: [{ name: 'X-A' }, { name: 'x-a' }] }))).toEqual([]);
  });

  test('composite keys are compared after defaulting', () => {
    expect(v.validate(widget({ ports: [{ port: 80 }, { port: 80, protocol: 'UDP' }] }))).toEqual([]);
    expect(v.validate(widget({ ports: [{ port: 80 }, { port: 80, protocol: 'TCP' }] }))).toMatchObject([{ path: 'spec.ports[1]' }]);
  });

  test('set items must be unique', () => {
    expect(v.validate(widget({ tags: ['a', 'b'] }))).toEqual([]);
    expect(v.validate(widget({ tags: ['a', 'b', 'a'] }))).toMatchObject([{ path: 'spec.tags[2]', rule: 'x-kubernetes-list-type' }]);
  });
});

describe('defaulting', () => {
  const v = widgetValidator(obj({
    mode: { type: 'string', default: 'Auto' },
    rules: {
      type: 'array',
      default: [{ matches: [{ path: { type: 'PathPrefix', value: '/' } }] }],
      items: obj({
        weight: { type: 'integer', default: 1 },
        matches: {
          type: 'array',
          items: obj({ path: obj({ type: { type: 'string', default: 'Exact' }, value: { type: 'string' } }) }),
        },
      }),
    },
    nested: obj({ level: { type: 'string', default: 'info' } }, { default: {} }),
    nullable: { type: 'string', default: 'filled' },
  }, {
    'x-kubernetes-validations': [{ rule: "self.mode == 'Auto'", message: 'rules see defaulted values' }],
  }));

  test('absent fields get their defaults, recursively, including in defaults and array items', () => {
    expect(v.defaulted(widget({})).spec).toEqual({
      mode: 'Auto',
      rules: [{ weight: 1, matches: [{ path: { type: 'PathPrefix', value: '/' } }] }],
      nested: { level: 'info' },
      nullable: 'filled',
    });
  });

  test('defaults fill gaps inside given array items but keep given values', () => {
    const spec = v.defaulted(widget({ rules: [{ matches: [{ path: { value: '/a' } }] }, { weight: 5 }] })).spec;
    expect(spec).toMatchObject({ rules: [{ weight: 1, matches: [{ path: { type: 'Exact', value: '/a' } }] }, { weight: 5 }] });
  });

  test('an explicit empty list is not replaced by the default', () => {
    expect(v.defaulted(widget({ rules: [] })).spec).toMatchObject({ rules: [] });
  });

  test('null in a non-nullable field is replaced by the default', () => {
    expect(v.defaulted(widget({ nullable: null })).spec).toMatchObject({ nullable: 'filled' });
  });

  test('CEL rules run on the defaulted object', () => {
    expect(v.validate(widget({}))).toEqual([]);
    expect(v.validate(widget({ mode: 'Manual' }))).toMatchObject([{ path: 'spec', message: 'rules see defaulted values' }]);
  });

  test('the input object is never mutated', () => {
    const input = widget({ extra: 1 });
    v.check(input);
    expect(input.spec).toEqual({ extra: 1 });
  });
});

describe('metadata', () => {
  const v = widgetValidator(obj({}));
  const withMeta = (metadata: unknown) => ({ apiVersion: 'test.example.com/v1', kind: 'Widget', metadata, spec: {} });

  test('a DNS-subdomain name and DNS-label namespace pass', () => {
    expect(v.validate(withMeta({ name: 'a.b-c', namespace: 'team-a', labels: { 'app.kubernetes.io/name': 'x' } }))).toEqual([]);
  });

  test.each([
    [{ name: 'Bad_Name' }, 'metadata.name'],
    [{ name: 'a'.repeat(254) }, 'metadata.name'],
    [{ name: 'ok', namespace: 'has.dot' }, 'metadata.namespace'],
    [{ name: 'ok', namespace: 'n'.repeat(64) }, 'metadata.namespace'],
    [{ namespace: 'ns' }, 'metadata.name'],
    [{ name: 'ok', labels: { 'bad key!': 'v' } }, 'metadata.labels'],
    [{ name: 'ok', labels: { k: 'bad value!' } }, 'metadata.labels[k]'],
    [{ name: 'ok', uid: 5 }, 'metadata.uid'],
    [{ name: 'ok', nickname: 'x' }, 'metadata.nickname'],
  ])('%j is rejected at %s', (metadata, path) => {
    expect(paths(v.validate(withMeta(metadata)))).toContain(path);
  });

  test('a 253-character name is still fine', () => {
    expect(v.validate(withMeta({ name: `${'a'.repeat(63)}.`.repeat(3) + 'a'.repeat(61) }))).toEqual([]);
  });
});

describe('schema resolution', () => {
  test('an unknown kind yields exactly one "no schema" issue', () => {
    const v = widgetValidator(obj({}));
    expect(v.validate({ apiVersion: 'example.com/v9', kind: 'Gadget', metadata: { name: 'g' } })).toEqual([
      { apiVersion: 'example.com/v9', kind: 'Gadget', name: 'g', path: '', message: 'no schema for example.com/v9/Gadget', rule: 'schema' },
    ]);
  });

  test('a version that is not served is unknown', () => {
    const doc = widgetCrd(obj({}));
    ((doc.spec as any).versions[0] as any).served = false;
    expect(CrdCatalog.fromDocuments([doc]).has('test.example.com/v1', 'Widget')).toBe(false);
  });

  test('a later CRD for the same group/kind replaces the earlier one', () => {
    const first = widgetCrd(obj({ a: { type: 'string' } }));
    const second = widgetCrd(obj({ b: { type: 'string' } }));
    const v = new ConformanceValidator(CrdCatalog.fromDocuments([first, second]));
    expect(v.validate(widget({ b: 'x' }))).toEqual([]);
    expect(v.validate(widget({ a: 'x' }))).toMatchObject([{ path: 'spec.a', rule: 'unknown field' }]);
  });

  test('CRDs take precedence over built-in core schemas, which can be switched off', () => {
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: {} };
    const v = new ConformanceValidator(CrdCatalog.fromDocuments([]), { coreKinds: false });
    expect(v.validate(deployment)).toMatchObject([{ message: 'no schema for apps/v1/Deployment' }]);
  });
});
