import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Exercise, ExerciseCategories, ExerciseListResponse } from '@contract/exercises';
import { api, isApiError } from '@web/lib/api';

export const EXERCISES_KEY = ['exercises'] as const;

/** GET /api/exercises with the interface language and the selected course; a 403 means an empty list (SPEC.md section 6). */
export async function fetchExercises(courseId: number | null, language: string, signal?: AbortSignal): Promise<Exercise[]> {
  try {
    const res = await api<ExerciseListResponse | Exercise[]>('/api/exercises', { query: { language, course_id: courseId }, signal });
    return Array.isArray(res) ? res : res.exercises;
  } catch (err) {
    if (isApiError(err, 403)) return [];
    throw err;
  }
}

export const exercisesQueryOptions = (courseId: number | null, language: string) =>
  queryOptions({
    queryKey: [...EXERCISES_KEY, { courseId, language }],
    queryFn: ({ signal }) => fetchExercises(courseId, language, signal),
  });

export function useExercises(courseId: number | null, language: string) {
  return useQuery({ ...exercisesQueryOptions(courseId, language), placeholderData: keepPreviousData });
}

/** GET /api/exercise-categories?language=…: {key: label}. */
export function useExerciseCategories(language: string) {
  return useQuery({
    queryKey: ['exercise-categories', language],
    queryFn: ({ signal }) => api<ExerciseCategories>('/api/exercise-categories', { query: { language }, signal }),
    staleTime: 60 * 60_000,
  });
}

export type SaveInput = { id?: number; form: FormData; onProgress?: (fraction: number) => void };

export function saveExercise({ id, form, onProgress }: SaveInput): Promise<Exercise> {
  return api<Exercise>(id ? `/api/exercises/${id}` : '/api/exercises', {
    method: 'POST',
    formData: form,
    // XMLHttpRequest only when there are files: it reports upload progress
    ...(onProgress ? { onUploadProgress: onProgress } : {}),
  });
}

export function deleteExercise(id: number): Promise<void> {
  return api<void>(`/api/exercises/${id}`, { method: 'DELETE' });
}

/** Create/update and delete; both refresh every exercise list (the assignment dialog reads them too). */
export function useExerciseMutations() {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: EXERCISES_KEY });
  const save = useMutation({ mutationFn: saveExercise, onSuccess: refresh });
  const remove = useMutation({ mutationFn: deleteExercise, onSuccess: refresh });
  return { save, remove };
}
