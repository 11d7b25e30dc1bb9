// Field sets: the paths of an object one manager owns, the facts server-side apply
// (src/apply/) builds managedFields, conflicts and pruning on. Modelled on
// structured-merge-diff's fieldpath and typed packages as kube uses them:
//   - field-set/element.ts   path elements, their order, `.spec.x[name="c"]` strings
//   - field-set/set.ts       the immutable set and its operations
//   - field-set/fields-v1.ts the `fieldsV1` JSON kube stores, both ways
//   - field-set/semantics.ts list and map markers -> atomic, set or keyed ownership
//   - field-set/of-object.ts the set an object sets, read through its schema
export {
  compareElements, elementsEqual, elementString, fieldElement, indexElement, keyElement, pathString, serializeElement, valueElement,
  type FieldElement, type IndexElement, type KeyElement, type KeyField, type Path, type PathElement, type ValueElement,
} from './field-set/element.js';
export type { JsonValue } from './field-set/json-text.js';
export {
  difference, EMPTY_FIELD_SET, equals, fieldSetFromPaths, has, intersection, isEmpty, leaves, MAX_FIELD_SET_DEPTH, paths,
  recursiveDifference, union, type FieldSet, type FieldSetChild,
} from './field-set/set.js';
export { fromFieldsV1, FieldsV1Error, parseElement, toFieldsV1, type FieldsV1, type FromFieldsV1Options } from './field-set/fields-v1.js';
export { isAtomicMap, listSemanticsOf, type ListSemantics } from './field-set/semantics.js';
export { fieldSetOf, FieldSetError, STRIP_META_SET, type FieldSetOptions } from './field-set/of-object.js';
