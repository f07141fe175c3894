import type { Db } from '../../db/client';
import type { AuthUser } from '../../lib/auth';
import type { TeacherAttention, TeacherDashboard } from '@contract/dashboard';
import { teacherAttention, teacherDashboard } from './dashboard.repo';

export class DashboardService {
  constructor(private readonly db: Db) {}

  /** Counts and recent students of one teacher, optionally for one course (one SQL statement). */
  forTeacher(teacher: Pick<AuthUser, 'id' | 'schoolId'>, courseId: number | undefined, today: string): Promise<TeacherDashboard> {
    return teacherDashboard(this.db, teacher.schoolId, teacher.id, courseId, today);
  }

  /** What needs the teacher's attention (quiet students, piling overdue tasks, waiting takes) and their first steps (one SQL statement). */
  attention(teacher: Pick<AuthUser, 'id' | 'schoolId'>, courseId: number | undefined, today: string, timeZone: string): Promise<TeacherAttention> {
    return teacherAttention(this.db, teacher.schoolId, teacher.id, courseId, today, timeZone);
  }
}
