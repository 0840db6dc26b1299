/**
 * Where a rule's documentation is: `<base>#<rule id in lower case>`, the anchors docs/rules.md's headings get. The base
 * comes from the front-end (package.json `homepage`, a config `docsUrl` or `--docs-url`); a rule the page has no
 * section for links to the page itself.
 */
export type HelpUri = (ruleId: string) => string;

export function helpUriFor(base: string, documented: ReadonlySet<string>): HelpUri {
  const page = base.replace(/#.*$/, '');
  return (ruleId) => (documented.has(ruleId) ? `${page}#${ruleId.toLowerCase()}` : page);
}
