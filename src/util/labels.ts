/** How messages name an object: "Kind namespace/name" (just "Kind name" for a cluster-scoped one). The one label builder. */

/** What a label needs of an object's identity (a ResourceId). */
export interface LabelledId {
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
}

export function idLabel(id: LabelledId): string {
  return `${id.kind} ${id.namespace ? `${id.namespace}/` : ''}${id.name}`;
}

/** The label of an indexed object (anything with an `id`). */
export function objectLabel(entry: { readonly id: LabelledId }): string {
  return idLabel(entry.id);
}
