import { AuditLogPage } from '@web/features/school/components/audit-log-page';

/** /school/audit (admin): the school's audit log. */
export default function SchoolAuditScreen() {
  return <AuditLogPage />;
}
