import { useParams } from 'react-router';
import { StudentReport } from '@web/features/progress/components/student-report';

/** /students/{id}/report (teacher): the printable one-page report, outside the app's layout. */
export default function StudentReportScreen() {
  const { id } = useParams();
  const n = Number(id);
  return <StudentReport studentId={Number.isInteger(n) && n > 0 && n <= 2147483647 ? n : null} />;
}
