import { widget, widgetCrd, widgetValidator } from './inline-crd';
import { ConformanceHarnessError, CrdCatalog, escapeCelPropertyName, JsonSchema, ValidationRule } from '../../src/conformance';

const withRules = (properties: Record<string, JsonSchema>, rules: ValidationRule[]): JsonSchema => ({
  'type': 'object',
  properties,
  'x-kubernetes-validations': rules,
});

describe('property name escaping', () => {
  test.each([
    ['namespace', '__namespace__'],
    ['in', '__in__'],
    ['true', '__true__'],
    ['x-kubernetes', 'x__dash__kubernetes'],
    ['a.b', 'a__dot__b'],
    ['a/b', 'a__slash__b'],
    ['a__b', 'a__underscores__b'],
    ['plain', 'plain'],
  ])('%s is reached as %s', (name, escaped) => {
    expect(escapeCelPropertyName(name)).toBe(escaped);
  });

  test('names with other characters are not reachable at all', () => {
    expect(escapeCelPropertyName('a b')).toBeUndefined();
  });

  test('a field named namespace is visible as self.__namespace__', () => {
    const v = widgetValidator(withRules(
      {
        'refs': {
          'type': 'array',
          'items': { type: 'object', properties: { name: { type: 'string' }, namespace: { type: 'string' } } },
          'x-kubernetes-validations': [{
            rule: 'self.all(r, !has(r.__namespace__) || r.__namespace__ != r.name)',
            message: 'namespace and name must differ',
          }],
        },
        'dash-field': { type: 'string' },
      },
      [{ rule: "!has(self.dash__dash__field) || self.dash__dash__field != 'bad'", message: 'dash field is bad' }],
    ));
    expect(v.validate(widget({ refs: [{ name: 'a', namespace: 'b' }, { name: 'c' }] }))).toEqual([]);
    expect(v.validate(widget({ refs: [{ name: 'a', namespace: 'a' }] }))).toMatchObject([{ path: 'spec.refs', message: 'namespace and name must differ' }]);
    expect(v.validate(widget({ 'dash-field': 'bad' }))).toMatchObject([{ path: 'spec', message: 'dash field is bad' }]);
  });

  test('map keys are data and are not escaped', () => {
    const v = widgetValidator(withRules(
      { labels: { type: 'object', additionalProperties: { type: 'string' } } },
      [{ rule: "!has(self.labels) || !('app-name' in self.labels) || self.labels['app-name'] != ''", message: 'app-name must not be empty' }],
    ));
    expect(v.validate(widget({ labels: { 'app-name': 'x' } }))).toEqual([]);
    expect(v.validate(widget({ labels: { 'app-name': '' } }))).toMatchObject([{ message: 'app-name must not be empty' }]);
  });
});

describe('CEL values', () => {
  const v = widgetValidator(withRules(
    {
      port: { type: 'integer' },
      ratio: { type: 'number' },
      target: { 'x-kubernetes-int-or-string': true },
      timeout: { type: 'string', format: 'duration' },
      name: { type: 'string' },
    },
    [
      { rule: '!has(self.port) || (type(self.port) == int && self.port == 8080)', message: 'port must be the int 8080' },
      { rule: '!has(self.ratio) || type(self.ratio) == double', message: 'ratio is a double' },
      { rule: '!has(self.target) || type(self.target) == int || type(self.target) == string', message: 'int-or-string' },
      { rule: "!has(self.timeout) || self.timeout <= duration('1m')", message: 'timeout at most a minute' },
      { rule: '!has(self.name) || self.name.lowerAscii() == self.name', message: 'name must be lower case' },
    ],
  ));

  test('integers are CEL ints, numbers are doubles, even when whole', () => {
    expect(v.validate(widget({ port: 8080, ratio: 2, target: 9 }))).toEqual([]);
    expect(v.validate(widget({ target: 'http' }))).toEqual([]);
    expect(v.validate(widget({ port: 8081 }))).toMatchObject([{ message: 'port must be the int 8080' }]);
  });

  test('format: duration strings are CEL durations', () => {
    expect(v.validate(widget({ timeout: '30s' }))).toEqual([]);
    expect(v.validate(widget({ timeout: '2m' }))).toMatchObject([{ message: 'timeout at most a minute' }]);
  });

  test('the Kubernetes strings extension is available', () => {
    expect(v.validate(widget({ name: 'abc' }))).toEqual([]);
    expect(v.validate(widget({ name: 'Abc' }))).toMatchObject([{ message: 'name must be lower case' }]);
  });
});

describe('where and when rules run', () => {
  const v = widgetValidator(withRules(
    {
      optional: { 'type': 'string', 'x-kubernetes-validations': [{ rule: 'false', message: 'never valid when present' }] },
      items: {
        type: 'array',
        items: { 'type': 'object', 'properties': { n: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.n > 0', message: 'n must be positive' }] },
      },
    },
    [],
  ), {}, { 'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('w') && self.kind == 'Widget'", message: 'root sees metadata.name and kind' }] });

  test('a rule on an absent optional field does not run', () => {
    expect(v.validate(widget({}))).toEqual([]);
    expect(v.validate(widget({ optional: 'x' }))).toMatchObject([{ path: 'spec.optional', message: 'never valid when present', rule: 'false' }]);
  });

  test('an items rule runs per item and reports the item path', () => {
    expect(v.validate(widget({ items: [{ n: 1 }, { n: 0 }, { n: 2 }, { n: -1 }] })).map(i => i.path)).toEqual(['spec.items[1]', 'spec.items[3]']);
  });

  test('a root rule sees apiVersion/kind and metadata.name', () => {
    expect(v.validate(widget({}, 'widget-1'))).toEqual([]);
    expect(v.validate(widget({}, 'gadget'))).toMatchObject([{ path: '', message: 'root sees metadata.name and kind' }]);
  });

  test('CEL rules are skipped, with a notice, when the object has type errors', () => {
    const issues = v.validate(widget({ optional: 5 }));
    expect(issues.map(i => i.rule)).toEqual(['type', 'x-kubernetes-validations']);
    expect(issues[1].message).toContain('some validation rules were not checked');
  });
});

describe('error text', () => {
  const v = widgetValidator(withRules(
    { min: { type: 'integer' }, max: { type: 'integer' }, labels: { type: 'object', additionalProperties: { type: 'string' } } },
    [
      { rule: '!has(self.min) || !has(self.max) || self.min <= self.max', messageExpression: "'min ' + string(self.min) + ' exceeds max ' + string(self.max)", message: 'static text' },
      { rule: "!has(self.labels) || !('owner' in self.labels) || self.labels['owner'] != 'root'", fieldPath: ".labels['owner']", reason: 'FieldValueForbidden', message: 'owner may not be root' },
      { rule: '!has(self.max) || self.max < 100' },
    ],
  ));

  test('messageExpression wins over message', () => {
    expect(v.validate(widget({ min: 5, max: 3 }))).toMatchObject([{ path: 'spec', message: 'min 5 exceeds max 3' }]);
  });

  test('fieldPath moves the issue and reason prefixes the message', () => {
    expect(v.validate(widget({ labels: { owner: 'root' } }))).toMatchObject([{ path: 'spec.labels[owner]', message: 'Forbidden: owner may not be root' }]);
  });

  test('without a message the rule itself is quoted', () => {
    expect(v.validate(widget({ max: 100 }))).toMatchObject([{ path: 'spec', message: 'failed rule: !has(self.max) || self.max < 100', rule: '!has(self.max) || self.max < 100' }]);
  });
});

describe('harness errors are loud', () => {
  const crdWithRule = (rule: string) => widgetCrd(withRules({ a: { type: 'string' } }, [{ rule }]));

  test('a rule that does not parse fails at load time', () => {
    expect(() => CrdCatalog.fromDocuments([crdWithRule('self.a ==')])).toThrow(ConformanceHarnessError);
  });

  test('a function the harness does not provide fails at load time', () => {
    expect(() => CrdCatalog.fromDocuments([crdWithRule('self.a.frobnicate()')])).toThrow(/frobnicate/);
  });

  test('an undeclared variable fails at load time', () => {
    expect(() => CrdCatalog.fromDocuments([crdWithRule('other.a == self.a')])).toThrow(/undeclared "other"/);
  });

  test('a type mismatch at evaluation time throws', () => {
    const v = widgetValidator(withRules({ a: { type: 'string' } }, [{ rule: '!has(self.a) || self.a + 1 == 2' }]));
    expect(() => v.validate(widget({ a: 'x' }))).toThrow(ConformanceHarnessError);
  });

  test('a rule reading an absent field rejects the object, as on a cluster, or throws on request', () => {
    const spec = withRules({ a: { type: 'string' } }, [{ rule: "self.a == 'x'", message: 'a must be x' }]);
    expect(widgetValidator(spec).validate(widget({}))).toMatchObject([{ path: 'spec', message: expect.stringMatching(/^rule could not be evaluated: .*a/) }]);
    expect(() => widgetValidator(spec, { celEvaluationErrors: 'throw' }).validate(widget({}))).toThrow(ConformanceHarnessError);
  });

  test('transition rules (oldSelf) are skipped: there is no old object on create', () => {
    const v = widgetValidator(withRules({ a: { type: 'string' } }, [{ rule: 'self == oldSelf', message: 'immutable' }]));
    expect(v.validate(widget({ a: 'x' }))).toEqual([]);
  });
});
