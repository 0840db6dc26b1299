/**
 * One analysis per synth. cdk8s validates the whole App once more for every chart it writes (App._synthChart), so an
 * App-wide analysis would run charts + 1 times per synth: quadratic in large apps. Nothing can change the tree while
 * one synchronous App.synth() or synthYaml() runs, so the first result is reused until that call returns, and the JSON
 * each object rendered for the checks is what cdk8s writes next (pinned until then: objects are rendered once).
 *
 * cdk8s validates before it writes anything (App.synth: validate, then the YAML files), so a synth whose checks fail
 * writes no manifest; nothing here writes or moves files.
 */
import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';

export class SynthScope {
  private depth = 0;
  /** The failures of the first validation inside the current synth, reused until it returns. */
  private scoped?: string[];
  /** Objects whose rendered JSON is pinned for the rest of the current synth. */
  private pinned: ApiObject[] = [];

  /** Wraps the App instance's own synth methods (calls outside a synth, e.g. Testing.synth, always validate afresh). */
  constructor(root: IConstruct) {
    for (const method of ['synth', 'synthYaml'] as const) {
      const original = (root as any)[method];
      if (typeof original !== 'function') continue;
      (root as any)[method] = (...args: unknown[]) => {
        if (this.depth > 0) return original.apply(root, args);
        this.depth++;
        try {
          return original.apply(root, args);
        } finally {
          this.depth--;
          this.end();
        }
      };
    }
  }

  /** `validate()` once per synth (every time outside one). */
  public once(validate: () => string[]): string[] {
    if (this.depth === 0) return validate();
    this.scoped ??= validate();
    return this.scoped;
  }

  /** The object's JSON; inside a synth pinned on the object (an own `toJson` shadowing the prototype's) until it returns. */
  public render(obj: ApiObject): any {
    const json = obj.toJson();
    if (this.depth > 0) {
      (obj as any).toJson = () => json;
      this.pinned.push(obj);
    }
    return json;
  }

  private end(): void {
    this.scoped = undefined;
    for (const obj of this.pinned) delete (obj as any).toJson;
    this.pinned = [];
  }
}
