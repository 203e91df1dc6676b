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
import systemFieldExposed from './system-field-exposed';
import enumUnexplained from './enum-unexplained';
import enumImplicit from './enum-implicit';
import idSourceMissing from './id-source-missing';
import toolReferenceUnknown from './tool-reference-unknown';
import requiredMismatch from './required-mismatch';
import arrayRequiredEmpty from './array-required-empty';
import arrayEmptyVsNull from './array-empty-vs-null';
import evalUnknownField from './eval-unknown-field';
import evalMissingField from './eval-missing-field';
import evalToolUnknown from './eval-tool-unknown';
import evalArgsInvalid from './eval-args-invalid';
import evalAssertionConflict from './eval-assertion-conflict';
import toolUndiscoverable from './tool-undiscoverable';
import descriptionInjection from './description-injection';
import descriptionHiddenChars from './description-hidden-chars';
import toolShadowing from './tool-shadowing';
import annotationDestructiveMissing from './annotation-destructive-missing';
import annotationContradiction from './annotation-contradiction';
import toolCountExceeded from './tool-count-exceeded';
import tokenBudgetExceeded from './token-budget-exceeded';
import schemaStrictIncompatible from './schema-strict-incompatible';
import schemaProviderUnsupported from './schema-provider-unsupported';

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
  systemFieldExposed,
  enumUnexplained,
  enumImplicit,
  idSourceMissing,
  toolReferenceUnknown,
  requiredMismatch,
  arrayRequiredEmpty,
  arrayEmptyVsNull,
  evalUnknownField,
  evalMissingField,
  evalToolUnknown,
  evalArgsInvalid,
  evalAssertionConflict,
  toolUndiscoverable,
  descriptionInjection,
  descriptionHiddenChars,
  toolShadowing,
  annotationDestructiveMissing,
  annotationContradiction,
  toolCountExceeded,
  tokenBudgetExceeded,
  schemaStrictIncompatible,
  schemaProviderUnsupported,
] as Rule[];

const byId = new Map(RULES.map((r) => [r.meta.id, r]));

export function allRules(): readonly Rule[] {
  return RULES;
}

export function getRule(id: string): Rule | undefined {
  return byId.get(id);
}
