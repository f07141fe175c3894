import { z } from 'zod';
import { CATEGORIES, DIFFICULTIES, UPLOAD_MAX_BYTES, UPLOAD_MIME_TYPES } from './constants';
import { courseIdQuery, languageQuery, languageSchema, wholeNumberText } from './common';
import { mediaFileSchema } from './submissions';
import { checkGrouping, exerciseSettingsDoc, exerciseSettingsFields, exerciseSettingsSchema } from './exercise-settings';
import { EXERCISE_LIMITS } from './exercises-limits';

// The limits without zod (the web app imports them from there).
export * from './exercises-limits';

export const categorySchema = z.enum(CATEGORIES);
export const difficultySchema = z.enum(DIFFICULTIES);

export const exerciseSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    description: z.string().nullable(),
    category: categorySchema.nullable(),
    category_label: z.string().nullable(),
    difficulty: difficultySchema.nullable(),
    target: z.string().nullable(),
    estimated_minutes: z.number().int().nullable(),
    tags: z.array(z.string()),
    priority: z.number().int(),
    language: languageSchema,
    courses: z.array(z.object({ id: z.number().int(), name: z.string() })),
    created_at: z.string(),
    media_files: z.array(mediaFileSchema),
    /** The practice tools' settings (contract/exercise-settings.ts); null when not set. */
    ...exerciseSettingsSchema.shape,
  })
  .meta({ id: 'Exercise' });
export type Exercise = z.infer<typeof exerciseSchema>;

const positiveInt = wholeNumberText(z.number().int().positive().max(2147483647));

/** GET /api/exercises query: all rows unless `page` is given. */
export const exerciseListQuery = z.strictObject({
  language: languageQuery,
  course_id: courseIdQuery,
  page: z.preprocess((v) => (v === '' ? undefined : v), positiveInt.optional()),
  per_page: z.preprocess((v) => (v === '' ? undefined : v), wholeNumberText(z.number().int().min(1).max(100)).optional()),
});
export type ExerciseListQuery = z.infer<typeof exerciseListQuery>;

export const paginationSchema = z.object({
  total: z.number().int(),
  current_page: z.number().int(),
  per_page: z.number().int(),
  last_page: z.number().int(),
});

export const exerciseListResponse = z
  .object({ exercises: z.array(exerciseSchema), pagination: paginationSchema })
  .meta({ id: 'ExerciseList' });
export type ExerciseListResponse = z.infer<typeof exerciseListResponse>;

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
/** A multipart array field sent once (`tags=a`, as generated clients do for one element) is a list of one. */
const oneToList = (v: unknown) => (typeof v === 'string' ? [v] : v);
const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

/**
 * The text fields of the multipart form of POST /api/exercises and POST /api/exercises/{id},
 * after the server has gathered `tags`, `tags[]`, `tags[i]` (and the same for `course_ids`,
 * `remove_media`) into arrays; one repeated-field value counts as a list of one.
 * The web form validates with the same schema.
 */
export const exerciseFields = z
  .object({
    title: z.preprocess(trimmed, z.string().min(1).max(EXERCISE_LIMITS.title)),
    description: z.preprocess(emptyToNull, z.string().trim().max(EXERCISE_LIMITS.description).nullable().optional()),
    category: z.preprocess(emptyToNull, categorySchema.nullable().optional()),
    difficulty: z.preprocess(emptyToNull, difficultySchema.nullable().optional()),
    target: z.preprocess(emptyToNull, z.string().trim().max(EXERCISE_LIMITS.target).nullable().optional()),
    estimated_minutes: z.preprocess(emptyToNull, z.coerce.number().int().min(1).max(EXERCISE_LIMITS.minutesMax).nullable().optional()),
    priority: z.preprocess(emptyToNull, z.coerce.number().int().min(1).max(5).nullable().optional()),
    language: z.preprocess(emptyToNull, languageSchema.nullable().optional()),
    tags: z.preprocess(
      oneToList,
      z
        .array(z.preprocess(trimmed, z.string().max(EXERCISE_LIMITS.tag)))
        .max(EXERCISE_LIMITS.tags)
        .default([])
        .transform((tags) => [...new Set(tags.filter((t) => t !== ''))]),
    ),
    course_ids: z.preprocess(oneToList, z.array(positiveInt).max(200).default([])),
    remove_media: z.preprocess(oneToList, z.array(positiveInt).max(200).default([])),
    /** Practice-tool settings (contract/exercise-settings.ts); on update a field left out or blank is cleared, like description. */
    ...exerciseSettingsFields,
  })
  .superRefine(checkGrouping);
export type ExerciseFieldsInput = z.input<typeof exerciseFields>;
export type ExerciseFields = z.output<typeof exerciseFields>;

/**
 * The multipart form as documented in OpenAPI (never parsed with this schema: the server reads
 * the parts itself, server/modules/exercises/exercises.upload.ts). Array fields are sent as one
 * part per element under the same name (`tags`, `tags`, …; see EXERCISE_FORM_ENCODING); the
 * server also accepts `tags[]` and `tags[0]`, `tags[1]`, … Blank text fields count as missing.
 */
export const exerciseMultipartDoc = z
  .object({
    title: z.string().min(1).max(EXERCISE_LIMITS.title).meta({ pattern: '\\S' }),
    description: z.string().max(EXERCISE_LIMITS.description).optional(),
    category: categorySchema.optional(),
    difficulty: difficultySchema.optional(),
    target: z.string().max(EXERCISE_LIMITS.target).optional(),
    estimated_minutes: z.number().int().min(1).max(EXERCISE_LIMITS.minutesMax).optional(),
    priority: z.number().int().min(1).max(5).optional().describe('1–5; default 3'),
    language: languageSchema.optional(),
    tags: z.array(z.string().max(EXERCISE_LIMITS.tag)).max(EXERCISE_LIMITS.tags).optional().describe('One part per tag'),
    course_ids: z
      .array(z.number().int().min(1).max(2147483647))
      .max(200)
      .optional()
      .describe("One part per course id; each a course of the calling teacher (otherwise 422 errors.course_ids.N for the N-th)"),
    media_files: z
      .array(z.string().meta({ format: 'binary' }))
      .max(EXERCISE_LIMITS.files)
      .optional()
      .describe(`One part per file (${UPLOAD_MIME_TYPES.join(', ')}; at most ${UPLOAD_MAX_BYTES} bytes each)`),
    remove_media: z
      .array(z.number().int().min(1).max(2147483647))
      .max(200)
      .optional()
      .describe('Update only: ids of the media files to remove'),
    ...exerciseSettingsDoc,
  })
  .meta({ id: 'ExerciseForm' });

/** The OpenAPI `encoding` of that form: arrays as repeated parts, files with their allowed types. */
export const EXERCISE_FORM_ENCODING = {
  tags: { style: 'form', explode: true },
  course_ids: { style: 'form', explode: true },
  remove_media: { style: 'form', explode: true },
  media_files: { style: 'form', explode: true, contentType: UPLOAD_MIME_TYPES.join(', ') },
} as const;

export const exerciseCategoriesQuery = z.strictObject({ language: languageQuery });
export const exerciseCategoriesResponse = z.record(categorySchema, z.string()).meta({ id: 'ExerciseCategories' });
export type ExerciseCategories = z.infer<typeof exerciseCategoriesResponse>;
