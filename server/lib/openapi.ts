import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EXERCISE_FORM_ENCODING } from '@contract/exercises';
import { RECORDING_FORM_ENCODING, VOICE_COMMENT_FORM_ENCODING } from '@contract/recordings';

/** Marks a query parameter whose empty value the route reads as missing (moved to `allowEmptyValue`). */
const ALLOW_EMPTY = 'x-uk-allow-empty';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The header of a 429 answer. */
const RETRY_AFTER = { type: 'integer', minimum: 1, description: 'Seconds until another attempt can be accepted.' };

/**
 * The route part of the OpenAPI document, from the zod schemas (fastify-type-provider-zod), with
 * what that transform cannot say:
 * - a 204 answer has no body: documented without `content` (not as a JSON null);
 * - a 429 answer documents its `Retry-After` header;
 * - a query parameter the route also takes empty (`course_id=` = all courses) says so with
 *   `allowEmptyValue` (decided by asking the route's own zod schema).
 */
export const openApiTransform: SwaggerTransform = (input) => {
  const out = (jsonSchemaTransform as SwaggerTransform)(input);
  const schema = out.schema as Json | undefined;
  if (!schema) return out;
  const response = schema.response;
  if (isObj(response) && response['204'] !== undefined) response['204'] = { type: 'null', description: 'No content' };
  // every limiter's 429 says when to try again (docs/decisions/0013-many-processes.md)
  if (isObj(response) && isObj(response['429'])) response['429'] = { ...response['429'], headers: { 'retry-after': RETRY_AFTER } };
  const zodQuery = (input.schema as Json | undefined)?.querystring;
  const props = isObj(schema.querystring) ? schema.querystring.properties : undefined;
  if (zodQuery instanceof z.ZodType && isObj(props)) {
    for (const [name, prop] of Object.entries(props)) {
      if (isObj(prop) && zodQuery.safeParse({ [name]: '' }).success) prop[ALLOW_EMPTY] = true;
    }
  }
  return out;
};

/**
 * The whole document: components from the zod registry, then the multipart form's `encoding`
 * (arrays as one part per element) and `allowEmptyValue` on the parameters marked above.
 */
export const openApiTransformObject: SwaggerTransformObject = (input) => {
  const doc = (jsonSchemaTransformObject as SwaggerTransformObject)(input) as Json;
  for (const item of Object.values(isObj(doc.paths) ? doc.paths : {})) {
    if (!isObj(item)) continue;
    for (const op of Object.values(item)) {
      if (!isObj(op)) continue;
      for (const param of Array.isArray(op.parameters) ? op.parameters : []) {
        if (isObj(param) && isObj(param.schema) && param.schema[ALLOW_EMPTY]) {
          delete param.schema[ALLOW_EMPTY];
          param.allowEmptyValue = true;
        }
      }
      const content = isObj(op.requestBody) && isObj(op.requestBody.content) ? op.requestBody.content : undefined;
      const form = content?.['multipart/form-data'];
      if (isObj(form)) {
        // each multipart form with its own encoding (the schema's component names the form)
        const ref = isObj(form.schema) ? String(form.schema.$ref ?? '') : '';
        const encoding = ref.endsWith('/RecordingForm') ? RECORDING_FORM_ENCODING : ref.endsWith('/VoiceCommentForm') ? VOICE_COMMENT_FORM_ENCODING : EXERCISE_FORM_ENCODING;
        form.encoding = structuredClone(encoding);
      }
    }
  }
  return doc as ReturnType<SwaggerTransformObject>;
};
