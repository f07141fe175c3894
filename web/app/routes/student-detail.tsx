import { useParams } from 'react-router';
import { StudentDetailView } from '@web/features/progress/components/student-detail-view';
import { StudentGuardians } from '@web/features/guardians/components/student-guardians';

/** /students/{id} (teacher): one student's overview, practice chart, recent tasks with review, statistics, and the parents (docs/decisions/schools-and-roles.md). */
export default function StudentDetailScreen() {
  const { id } = useParams();
  const n = Number(id);
  const studentId = Number.isInteger(n) && n > 0 && n <= 2147483647 ? n : null;
  return (
    <StudentDetailView key={studentId ?? 'none'} studentId={studentId}>
      {studentId !== null && <StudentGuardians studentId={studentId} />}
    </StudentDetailView>
  );
}
