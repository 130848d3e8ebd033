/** Shapes shared by the three payload templates: tags, custom properties, incremental operations. */
import * as z from 'zod';
import { list, opt, patternString, payloadString } from './primitives.js';

/**
 * Custom property names, from the vendor SDK, which applies this pattern to the lower-cased name:
 * `NAME` and `Version` are valid names (its live tests push `NAME`). See `isPropertyName`.
 */
export const PROPERTY_NAME = /^[a-z][a-z_]*$/;
/** Tag keys: word characters only. */
export const TAG_KEY = /^\w+$/;
/** Tag values: empty, or word characters, white space and `,@.-`. */
export const TAG_VALUE = /^[\w\s,@.-]*$/;
/** Longest custom property string value, in characters (vendor SDK). */
export const MAX_PROPERTY_STRING = 4096;

/** Types a custom property may be declared with. */
export const PROPERTY_TYPES = ['STRING', 'NUMBER', 'BOOLEAN', 'STRING_LIST', 'TIMESTAMP'] as const;
export const propertyTypeSchema = z.enum(PROPERTY_TYPES);
export type PropertyType = z.infer<typeof propertyTypeSchema>;

// Entities repeat a few property names (one per definition): the last valid ones are remembered.
// The slots start out holding a valid name, never `''`, which is not one.
const recentNames = ['a', 'a', 'a', 'a'];
let nextName = 0;

/**
 * Whether `name` is a valid custom property name: its lower-cased form matches `PROPERTY_NAME`.
 * Names compare without case, so a value set as `Name` finds the definition `name`.
 */
export function isPropertyName(name: string): boolean {
  if (
    name === recentNames[0] ||
    name === recentNames[1] ||
    name === recentNames[2] ||
    name === recentNames[3]
  )
    return true;
  if (!PROPERTY_NAME.test(name) && !PROPERTY_NAME.test(name.toLowerCase())) return false;
  recentNames[nextName] = name;
  nextName = (nextName + 1) & 3;
  return true;
}

/** A custom property name (`pattern` is the JSON Schema's ASCII equivalent of the lower-cased rule). */
export const propertyNameSchema = payloadString()
  .refine(isPropertyName, {
    error: 'must be letters and underscores, starting with a letter (^[a-z][a-z_]*$ once lower-cased)',
  })
  .meta({ pattern: '^[A-Za-z][A-Za-z_]*$' });

/** Declared custom properties of one entity kind: property name to type. */
export const propertyDefinitionsSchema = opt(z.record(propertyNameSchema, propertyTypeSchema));

const propertyString = z.string().refine((v) => v.length <= MAX_PROPERTY_STRING && v.isWellFormed(), {
  error: `must be valid UTF-8 of at most ${MAX_PROPERTY_STRING} characters`,
});

/** A custom property value; whether it matches the declared type is checked by `validate`. */
export const propertyValueSchema = z
  .union([propertyString, z.number(), z.boolean(), z.array(propertyString)])
  .nullable();

/** Custom property values of one entity, checked against the template's definition. */
export const customPropertiesSchema = opt(z.record(propertyNameSchema, propertyValueSchema));

/** A tag: key plus optional value. */
export const tagSchema = z.strictObject({
  key: patternString(TAG_KEY, 'letters, digits and underscores (^\\w+$)'),
  value: opt(patternString(TAG_VALUE, 'empty, or letters, digits, spaces and ,@.- (^[\\w\\s,@.-]+$)')),
});
export type Tag = z.infer<typeof tagSchema>;

/**
 * An owner of an entity (vendor SDK 1.1.15, "early access"): who owns an application, local
 * identity, access credential or resource. `owner_type` is free text: the SDK's own values are
 * `activedirectoryuser`, `azureaduser`, `googleworkspaceuser` and `oktauser`, and a custom identity
 * provider's users are `OAA.<idp_type>.IDPUser`.
 */
export const ownerSchema = z.strictObject({
  external_id: payloadString(),
  owner_type: payloadString(),
  primary: opt(z.boolean()),
});
export type Owner = z.infer<typeof ownerSchema>;

/** The owners of an entity; the SDK sends them on applications, local identities, creds and resources. */
export const ownersSchema = list(ownerSchema);

/** Deprecated dynamic properties (structure not given by the spec): at most 5 per entity. */
export const MAX_DYNAMIC_PROPERTIES = 5;
export const dynamicPropertiesSchema = opt(
  z
    .union([z.record(payloadString(), z.unknown()), z.array(z.unknown())])
    .refine((v) => (Array.isArray(v) ? v.length : Object.keys(v).length) <= MAX_DYNAMIC_PROPERTIES, {
      error: `at most ${MAX_DYNAMIC_PROPERTIES} dynamic properties are allowed (deprecated: use custom properties)`,
    }),
);

/**
 * Per-entity operation of an incremental payload. `delete_tag` is the vendor docs' spelling of the
 * spec's `remove_tag`; both are accepted.
 */
export const OPERATIONS = ['add', 'modify', 'delete', 'add_tag', 'remove_tag', 'delete_tag'] as const;
export const operationSchema = z.enum(OPERATIONS);
export type Operation = z.infer<typeof operationSchema>;

/** Fields every taggable payload entity carries. */
export const entityCommon = {
  custom_properties: customPropertiesSchema,
  tags: list(tagSchema),
  operation: opt(operationSchema),
};
