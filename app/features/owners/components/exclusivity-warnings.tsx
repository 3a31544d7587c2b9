import { Link } from "react-router";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";

export type ExclusivityWarningItem = { propertyId: string; codigo: string; daysLeft: number; text: string; ownerId: string | null };

/** Dashboard: the exclusive captações that end within 30 days ('Exclusividade de X termina em N dias'). */
export function ExclusivityWarnings({ warnings }: { warnings: ExclusivityWarningItem[] }) {
  if (warnings.length === 0) return null;
  return (
    <Card className="grid gap-2 border-amber-300 bg-amber-50 p-4" data-testid="exclusivity-warnings">
      <h2 className="flex items-center gap-2 font-semibold">
        <Icon name="circle-alert" className="size-5 text-amber-700" /> Exclusividades terminando
      </h2>
      <ul className="grid gap-1 text-sm">
        {warnings.map((warning) => (
          <li key={warning.propertyId}>
            {warning.ownerId ? (
              <Link to={`/crm/proprietarios/${warning.ownerId}`} className="underline underline-offset-2">
                {warning.text}
              </Link>
            ) : (
              warning.text
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}
