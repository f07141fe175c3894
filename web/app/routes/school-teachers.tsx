import { TeachersPage } from '@web/features/school/components/teachers-page';

/** /school/teachers (admin): the school's teachers and invitations. */
export default function SchoolTeachersScreen() {
  return <TeachersPage />;
}
