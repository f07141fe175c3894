import { GuardianHome } from '@web/features/guardians/components/guardian-home';

/** The guardian's home at '/' (docs/decisions/schools-and-roles.md): a card per linked child, each leading to /children/{id}. */
export default function GuardianDashboardScreen() {
  return <GuardianHome />;
}
