import { Link } from "react-router";
import { Icon } from "~/components/ui/icon";

/** The CRM list's way to a listing's 'Negociações' (/crm/imoveis/:id/negociacoes, issue 24). */
export function NegotiationsLink({ id, codigo, compact = false }: { id: string; codigo: string; compact?: boolean }) {
  return (
    <Link to={`/crm/imoveis/${id}/negociacoes`} className={`grid ${compact ? "size-8" : "size-10"} place-items-center rounded-md text-primary hover:bg-muted`}>
      <Icon name="heart-handshake" className="size-4" label={`Negociações de ${codigo}`} />
    </Link>
  );
}
