import { data, Link } from "react-router";
import { Card } from "~/components/ui/card";
import { BookingForm } from "~/features/leads/components/booking-form";
import { BOOKING_FIELDS, createVisitBooking, leadFailure } from "~/features/leads/site-leads.server";
import { LEAD_MESSAGES } from "~/features/leads/messages";
import { getPublicProperty } from "~/features/properties/public-queries.server";
import { rootDataFromMatches } from "~/features/site/root-data";
import { clientIp } from "~/lib/client-ip.server";
import { readForm, UnreadableBody } from "~/lib/request-body.server";
import { getRuntime } from "~/runtime.server";
import { isDatabaseUnavailable } from "~/db/availability.server";
import { pageMeta } from "~/lib/seo";
import type { Route } from "./+types/visit-booking";

/**
 * /agendar-visita: where every visit booking is posted (from the dialog on the list and property
 * pages), and a page of its own for browsers without JavaScript.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const id = new URL(request.url).searchParams.get("imovel");
  // The form works without the listing's title: when the database cannot answer (this page is
  // rendered again after a post without JavaScript), it still shows, with what was typed.
  const property = id
    ? await getPublicProperty((await getRuntime()).db, id).catch((error: unknown) => {
        if (isDatabaseUnavailable(error)) return null;
        throw error;
      })
    : null;
  return { property: property ? { id: property.id, title: property.title } : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const fields = await readForm(request);
  // Nothing of an unreadable body is given back: its text is what could not be read.
  if (fields instanceof UnreadableBody) return data({ ok: false as const, message: fields.message, values: {} as Record<string, string> }, { status: 400 });
  const runtime = await getRuntime();
  const { db, env } = runtime;
  const result = await createVisitBooking({ db, ip: clientIp(request, context), limitPerHour: env.LEAD_LIMIT_PER_HOUR, publicUrl: env.publicUrl }, fields);
  // The alert was enqueued with the lead: send it now rather than at the next poll.
  if (result.ok && result.leadId) {
    runtime.mail.wake();
    runtime.push.wake();
  }
  return result.ok ? { ok: true, message: LEAD_MESSAGES.bookingSuccess } : leadFailure(result, fields, BOOKING_FIELDS);
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const { broker, publicUrl } = rootDataFromMatches(matches);
  return pageMeta({
    title: `Agendar Visita | ${broker.siteName}`,
    description: `Agende uma visita a um imóvel com ${broker.name} em ${broker.serviceArea}.`,
    url: `${publicUrl}/agendar-visita`,
    siteName: broker.siteName,
    noindex: true,
  });
};

export default function VisitBookingPage({ loaderData, actionData }: Route.ComponentProps) {
  const { property } = loaderData;
  const typed = actionData && "values" in actionData ? actionData.values : undefined;
  return (
    <section className="container-page max-w-xl py-10">
      <Card className="p-5 sm:p-6">
        <h1 className="text-2xl font-bold">Agendar Visita</h1>
        {property && (
          <p className="mt-1 text-sm text-muted-foreground">
            Imóvel: <Link to={`/imoveis/${property.id}`} className="font-semibold text-primary underline">{property.title}</Link>
          </p>
        )}
        {/* Shown when the form was posted without JavaScript. */}
        {actionData && (
          <p role="status" className={actionData.ok ? "mt-4 rounded-md bg-green-50 p-3 text-green-900" : "mt-4 rounded-md bg-red-50 p-3 text-red-900"}>
            {actionData.message}
          </p>
        )}
        <div className="mt-5">
          <BookingForm propertyId={property?.id ?? typed?.property_id} defaults={typed} />
        </div>
      </Card>
    </section>
  );
}
