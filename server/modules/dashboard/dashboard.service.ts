import type { Db } from '../../db/client';
import type { AuthUser } from '../../lib/auth';
import type { TeacherDashboard } from '@contract/dashboard';
import { teacherDashboard } from './dashboard.repo';

export class DashboardService {
  constructor(private readonly db: Db) {}

  /** Counts and recent students of one teacher, optionally for one course (one SQL statement). */
  forTeacher(teacher: Pick<AuthUser, 'id' | 'schoolId'>, courseId: number | undefined, today: string): Promise<TeacherDashboard> {
    return teacherDashboard(this.db, teacher.schoolId, teacher.id, courseId, today);
  }
}
