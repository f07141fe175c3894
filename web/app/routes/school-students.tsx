import { SchoolStudentsPage } from '@web/features/school/components/school-students-page';
import { StudentGuardians } from '@web/features/guardians/components/student-guardians';

/** /school/students (admin): every student of the school; a student's parents through the guardians feature. */
export default function SchoolStudentsScreen() {
  return <SchoolStudentsPage renderGuardians={(student) => <StudentGuardians studentId={student.id} />} />;
}
