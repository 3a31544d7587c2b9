import { Link } from "react-router";
import { Icon } from "~/components/ui/icon";

/** The CRM list's way to a listing's 'Leads compatíveis' (/crm/imoveis/:id/leads). */
export function MatchingLeadsLink({ id, codigo, compact = false }: { id: string; codigo: string; compact?: boolean }) {
  return (
    <Link to={`/crm/imoveis/${id}/leads`} className={`grid ${compact ? "size-8" : "size-10"} place-items-center rounded-md text-primary hover:bg-muted`}>
      <Icon name="target" className="size-4" label={`Leads compatíveis com ${codigo}`} />
    </Link>
  );
}
