import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { CreateAssignmentBody, CreateAssignmentResponse } from '@contract/assignments';
import type { ExerciseListResponse } from '@contract/exercises';
import type { Student, StudentListResponse } from '@contract/students';
import { api, isApiError } from '@web/lib/api';
import { currentLanguage } from '@web/lib/i18n';

/** The dialog's option lists, cached per course (null = all courses) and language. */
export const ASSIGNMENT_OPTIONS_KEY = ['assignment-options'] as const;

export type ExerciseOption = { id: number; title: string; difficulty: ExerciseListResponse['exercises'][number]['difficulty'] };
export type ExerciseOptions = { exercises: ExerciseOption[]; total: number };

/** GET /api/students?language&course_id → the teacher's students. A failure gives an empty list (SPEC.md section 8). */
export async function fetchAssignableStudents(courseId: number | null, signal?: AbortSignal): Promise<Student[]> {
  try {
    const res = await api<StudentListResponse | Student[]>('/api/students', { query: { language: currentLanguage(), course_id: courseId }, signal });
    return Array.isArray(res) ? res : res.data;
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    return [];
  }
}

/**
 * GET /api/exercises?language&course_id → the exercises to choose from. A 403 gives an empty list
 * (SPEC.md section 6); other failures too, and the dialog offers 'Erneut laden'.
 */
export async function fetchAssignableExercises(courseId: number | null, language: string, signal?: AbortSignal): Promise<ExerciseOptions> {
  try {
    const res = await api<ExerciseListResponse | ExerciseListResponse['exercises']>('/api/exercises', {
      query: { language, course_id: courseId },
      signal,
    });
    const list = Array.isArray(res) ? res : res.exercises;
    const exercises = list.map((e) => ({ id: e.id, title: e.title, difficulty: e.difficulty }));
    return { exercises, total: Array.isArray(res) ? list.length : (res.pagination?.total ?? list.length) };
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    if (isApiError(err)) return { exercises: [], total: 0 };
    throw err;
  }
}

export const assignableStudentsQuery = (courseId: number | null) =>
  queryOptions({
    queryKey: [...ASSIGNMENT_OPTIONS_KEY, 'students', { courseId }] as const,
    queryFn: ({ signal }) => fetchAssignableStudents(courseId, signal),
  });

export const assignableExercisesQuery = (courseId: number | null, language: string) =>
  queryOptions({
    queryKey: [...ASSIGNMENT_OPTIONS_KEY, 'exercises', { courseId, language }] as const,
    queryFn: ({ signal }) => fetchAssignableExercises(courseId, language, signal),
  });

/** Loaded when the dialog opens (SPEC.md section 4), not before; a cached list shows at once and is refreshed. */
export function useAssignmentOptions(courseId: number | null, language: string, enabled: boolean) {
  const students = useQuery({ ...assignableStudentsQuery(courseId), enabled });
  const exercises = useQuery({ ...assignableExercisesQuery(courseId, language), enabled });
  return { students, exercises };
}

/** POST /api/submissions. */
export function createAssignment(body: CreateAssignmentBody): Promise<CreateAssignmentResponse> {
  return api<CreateAssignmentResponse>('/api/submissions', { method: 'POST', body, query: { language: currentLanguage() } });
}

export function useCreateAssignment() {
  return useMutation({ mutationFn: createAssignment });
}
