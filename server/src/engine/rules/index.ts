/**
 * The rule registry: every rule, in documentation order. A test checks this list against the
 * files of this folder, so a rule cannot be written and forgotten.
 */
import type { Rule } from './api';
import parseError from './parse-error';
import duplicateKey from './duplicate-key';
import schemaInvalid from './schema-invalid';
import schemaTypeMissing from './schema-type-missing';
import schemaArrayItemsMissing from './schema-array-items-missing';
import schemaRequiredUndefined from './schema-required-undefined';
import schemaDefaultInvalid from './schema-default-invalid';
import schemaExampleInvalid from './schema-example-invalid';
import descriptionMissing from './description-missing';
import toolNameInvalid from './tool-name-invalid';
import toolNameDuplicate from './tool-name-duplicate';

const RULES: Rule[] = [
  parseError,
  duplicateKey,
  schemaInvalid,
  schemaTypeMissing,
  schemaArrayItemsMissing,
  schemaRequiredUndefined,
  schemaDefaultInvalid,
  schemaExampleInvalid,
  descriptionMissing,
  toolNameInvalid,
  toolNameDuplicate,
] as Rule[];

const byId = new Map(RULES.map((r) => [r.meta.id, r]));

export function allRules(): readonly Rule[] {
  return RULES;
}

export function getRule(id: string): Rule | undefined {
  return byId.get(id);
}
