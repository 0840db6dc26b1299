import { FindingEffect, Severity } from '../../finding';
import { isToolConfigGroup } from '../../model/manifest';
import { metadataTypeProblems } from '../../model/metadata-types';
import { Rule, RuleArea } from '../../rule';

/** How many problems one finding lists before it counts the rest. */
const SHOWN = 10;

/** Metadata values of another type than ObjectMeta's: the object never reaches the cluster. */
export const metadataTypesRule: Rule = {
  id: 'LKD-SCHEMA-002',
  area: RuleArea.SCHEMA,
  severity: Severity.ERROR,
  effects: [FindingEffect.REJECTED],
  doc: {
    certainty: 'Rejected: kubectl, Helm and the API server decode metadata into ObjectMeta and refuse any other type '
      + '(k8s.io/apimachinery pkg/apis/meta/v1 types.go ObjectMeta).',
    title: 'Names, labels, annotations and selector labels are strings',
    why: 'Kubernetes reads metadata.name, namespace and generateName as strings and labels and annotations as maps of '
      + 'strings, for every kind; a built-in kind\'s pod template metadata and label selector (a Service\'s spec.selector, '
      + 'a Deployment\'s spec.selector.matchLabels) too. YAML reads `version: 2` as a number and '
      + '`prometheus.io/scrape: true` as a boolean, and kubectl then refuses the file ("json: cannot unmarshal number into '
      + 'Go struct field ObjectMeta.metadata.labels of type string"), as Helm and Argo CD do. Linkerd never sees the object: '
      + 'this analysis reads such a value as absent, so no other rule judges it.',
    fix: 'Quote the value ("2", "true"); write maps as maps.',
    linkerdSource: 'not Linkerd: Kubernetes ObjectMeta (k8s.io/apimachinery pkg/apis/meta/v1 types.go: Name, Namespace and '
      + 'GenerateName string, Labels and Annotations map[string]string), which kubectl, Helm and the API server decode '
      + 'every object\'s metadata into (null decodes as empty), and the built-in kinds\' typed specs (core/v1 ServiceSpec '
      + 'Selector map[string]string, meta/v1 LabelSelector MatchLabels map[string]string)',
    badExample: 'metadata:\n  labels:\n    version: 2\n  annotations:\n    prometheus.io/scrape: true',
    goodExample: 'metadata:\n  labels:\n    version: "2"\n  annotations:\n    prometheus.io/scrape: "true"',
  },
  check(ctx) {
    for (const entry of ctx.index.undecodableMetadata) {
      // Tool configs (a kustomization) are read by their tool, never applied.
      if (isToolConfigGroup(entry.group)) continue;
      const problems = metadataTypeProblems(entry.object, entry.group);
      const more = problems.length > SHOWN ? `; and ${problems.length - SHOWN} more` : '';
      ctx.report(entry, `${problems.slice(0, SHOWN).join('; ')}${more}: Kubernetes requires strings (maps of strings for labels, `
        + 'annotations and selectors), so kubectl, Helm and the API server refuse the object. Quote the value.', { effect: FindingEffect.REJECTED });
    }
  },
};
