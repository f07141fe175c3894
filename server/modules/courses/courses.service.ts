import type { Db } from '../../db/client';
import { notFound } from '../../errors';
import type { AuthUser } from '../../lib/auth';
import type { Course } from '@contract/courses';
import { deleteCourse, findOwnCourse, insertCourse, listCourses, updateCourse } from './courses.repo';

type CourseInput = { name: string; description?: string | null | undefined };

export class CoursesService {
  constructor(private readonly db: Db) {}

  /** A teacher's own courses; a student's enrolled courses. */
  list(user: AuthUser): Promise<Course[]> {
    return listCourses(this.db, user.schoolId, user.role === 'teacher' ? { teacherId: user.id } : { studentId: user.id });
  }

  async get(teacher: AuthUser, id: number): Promise<Course> {
    const c = await findOwnCourse(this.db, teacher.schoolId, teacher.id, id);
    if (!c) throw notFound();
    return c;
  }

  async create(teacher: AuthUser, input: CourseInput): Promise<Course> {
    const id = await insertCourse(this.db, teacher.schoolId, teacher.id, { name: input.name, description: input.description ?? null });
    return this.get(teacher, id);
  }

  async update(teacher: AuthUser, id: number, input: CourseInput): Promise<Course> {
    const ok = await updateCourse(this.db, teacher.schoolId, teacher.id, id, { name: input.name, description: input.description ?? null });
    if (!ok) throw notFound();
    return this.get(teacher, id);
  }

  async remove(teacher: AuthUser, id: number): Promise<void> {
    if (!(await deleteCourse(this.db, teacher.schoolId, teacher.id, id))) throw notFound();
  }
}
