import { asc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads, owners, properties, property_owners, proposal_offers, proposals } from "~/db/schema";
import { RENTAL_GUARANTEE_LABELS } from "~/features/properties/labels";
import type { BrokerProfile } from "~/features/site/broker-profile";
import { formatDateTime } from "~/lib/format";
import { isUuid } from "~/lib/ids";
import { type PdfFont, startPdf } from "~/lib/pdf.server";
import { dayLabel, OFFER_PARTY_LABELS, PAYMENT_FIELDS, PAYMENT_LABELS, PROPOSAL_STATUS_LABELS } from "./labels";
import { formatCents } from "./money";

/**
 * The printable proposal (issue 24): one A4 sheet (more when the history is long) with both
 * parties' names (the lead; the listing's owners, or a line to write them in), the listing, the
 * values and payment terms, the conditions, the validity, the history of offers, the broker's
 * name and CRECI, and lines to sign. pdfkit with DejaVu Sans, as the ficha (lib/pdf.server.ts).
 */

const M = 48;
const W = 595.28 - 2 * M;
const PRIMARY = "#0b5f7a";
const TEXT = "#1f2933";
const MUTED = "#5b6770";

export type ProposalDocument = {
  id: string;
  kind: "venda" | "aluguel";
  status: keyof typeof PROPOSAL_STATUS_LABELS;
  amountCents: number | null;
  payments: Partial<Record<(typeof PAYMENT_FIELDS)[number], number | null>>;
  guarantee: keyof typeof RENTAL_GUARANTEE_LABELS | null;
  startsOn: string | null;
  conditions: string | null;
  validUntil: string;
  createdAt: Date;
  client: { name: string; phone: string; email: string | null };
  owners: string[];
  listing: { codigo: string; title: string; place: string; priceCents: number };
  offers: { party: keyof typeof OFFER_PARTY_LABELS; amountCents: number | null; at: Date; note: string | null }[];
};

export async function loadProposalDocument(db: Database, id: string): Promise<ProposalDocument | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({ proposal: proposals, lead: { name: leads.full_name, phone: leads.phone, email: leads.email }, property: properties })
    .from(proposals)
    .innerJoin(leads, eq(leads.id, proposals.lead_id))
    .innerJoin(properties, eq(properties.id, proposals.property_id))
    .where(eq(proposals.id, id));
  if (!row) return null;
  const [ownerRows, offerRows] = await Promise.all([
    db
      .select({ name: owners.full_name })
      .from(property_owners)
      .innerJoin(owners, eq(owners.id, property_owners.owner_id))
      .where(eq(property_owners.property_id, row.property.id))
      .orderBy(asc(owners.full_name)),
    db.select().from(proposal_offers).where(eq(proposal_offers.proposal_id, id)).orderBy(asc(proposal_offers.at), asc(proposal_offers.id)),
  ]);
  const { proposal, property } = row;
  const street = property.street_address ? `${property.street_address}${property.address_number ? `, ${property.address_number}` : ""} – ` : "";
  return {
    id,
    kind: proposal.kind,
    status: proposal.status,
    amountCents: proposal.amount_cents,
    payments: { cash_cents: proposal.cash_cents, financing_cents: proposal.financing_cents, fgts_cents: proposal.fgts_cents, exchange_cents: proposal.exchange_cents },
    guarantee: proposal.guarantee,
    startsOn: proposal.starts_on,
    conditions: proposal.conditions,
    validUntil: proposal.valid_until,
    createdAt: new Date(proposal.created_at),
    client: row.lead,
    owners: ownerRows.map((owner) => owner.name),
    listing: { codigo: property.codigo, title: property.title, place: `${street}${property.neighborhood}, ${property.city}/${property.state}`, priceCents: Math.round(property.price * 100) },
    offers: offerRows.map((offer) => ({ party: offer.party, amountCents: offer.amount_cents, at: new Date(offer.at), note: offer.note })),
  };
}

export async function buildProposalPdf(doc: ProposalDocument, broker: BrokerProfile): Promise<Buffer> {
  const sale = doc.kind === "venda";
  const title = sale ? "Proposta de compra" : "Proposta de locação";
  const { doc: pdf, finish } = startPdf({ size: "A4", margin: M, info: { Title: `${title} – ${doc.listing.codigo}`, Author: broker.name, Creator: broker.siteName, CreationDate: doc.createdAt } });
  const font = (name: PdfFont, size: number, color = TEXT) => pdf.font(name).fontSize(size).fillColor(color);
  const money = (cents: number | null) => (cents === null ? "—" : `${formatCents(cents)}${sale ? "" : " por mês"}`);
  const heading = (text: string) => {
    pdf.moveDown(0.8);
    font("Sans-Bold", 11, PRIMARY).text(text, { width: W });
    pdf.moveDown(0.2);
  };
  const line = (label: string, value: string) => {
    font("Sans-Bold", 10).text(`${label}: `, { continued: true, width: W });
    font("Sans", 10).text(value, { width: W });
  };

  font("Sans-Bold", 12, PRIMARY).text(broker.siteName, M, M, { width: W });
  font("Sans", 9, MUTED).text(`${broker.name} · ${broker.creci} · ${broker.phone} · ${broker.email}`, { width: W });
  pdf.moveDown(0.6);
  font("Sans-Bold", 18).text(title, { width: W });
  font("Sans", 9.5, MUTED).text(`Emitida em ${formatDateTime(doc.createdAt)} · Situação: ${PROPOSAL_STATUS_LABELS[doc.status]}`, { width: W });

  heading("Partes");
  line(sale ? "Proponente comprador(a)" : "Proponente locatário(a)", doc.client.name);
  line("Contato", [doc.client.phone, doc.client.email].filter(Boolean).join(" · "));
  line(sale ? "Proprietário(s) vendedor(es)" : "Proprietário(s) locador(es)", doc.owners.length ? doc.owners.join(", ") : "______________________________");

  heading("Imóvel");
  line("Código", doc.listing.codigo);
  line("Imóvel", doc.listing.title);
  line("Endereço", doc.listing.place);
  line(sale ? "Valor anunciado" : "Aluguel anunciado", money(doc.listing.priceCents));

  heading("Valores");
  line(sale ? "Valor proposto" : "Aluguel proposto", money(doc.amountCents));
  if (sale) {
    for (const field of PAYMENT_FIELDS) {
      const cents = doc.payments[field];
      if (cents !== null && cents !== undefined) line(PAYMENT_LABELS[field], formatCents(cents));
    }
  } else {
    if (doc.guarantee) line("Garantia", RENTAL_GUARANTEE_LABELS[doc.guarantee]);
    if (doc.startsOn) line("Início da locação", dayLabel(doc.startsOn));
  }
  line("Validade da proposta", dayLabel(doc.validUntil));
  if (doc.conditions) {
    heading("Condições");
    font("Sans", 10).text(doc.conditions, { width: W });
  }

  if (doc.offers.length > 1) {
    heading("Histórico de ofertas");
    for (const offer of doc.offers) {
      font("Sans", 9.5).text(`${formatDateTime(offer.at)} · ${OFFER_PARTY_LABELS[offer.party]}: ${money(offer.amountCents)}${offer.note ? ` · ${offer.note}` : ""}`, { width: W });
    }
  }

  heading("Corretor responsável");
  line("Nome", broker.name);
  line("CRECI", broker.creci);

  // Signatures: room for three lines, on a new page when this one is full.
  if (pdf.y > 841.89 - M - 120) pdf.addPage();
  pdf.moveDown(3);
  const y = pdf.y;
  const half = (W - 24) / 2;
  pdf.moveTo(M, y).lineTo(M + half, y).lineWidth(0.7).strokeColor(MUTED).stroke();
  pdf.moveTo(M + half + 24, y).lineTo(M + W, y).stroke();
  font("Sans", 9, MUTED).text(doc.client.name, M, y + 4, { width: half });
  font("Sans", 9, MUTED).text(doc.owners[0] ?? "Proprietário(a)", M + half + 24, y + 4, { width: half });
  pdf.moveDown(3);
  const y2 = pdf.y;
  pdf.moveTo(M, y2).lineTo(M + half, y2).stroke();
  font("Sans", 9, MUTED).text(`${broker.name} · ${broker.creci}`, M, y2 + 4, { width: half });

  return finish();
}

/** GET /crm/propostas/:id/proposta.pdf's answer (the route checks the role first). */
export async function proposalPdfResponse(db: Database, broker: BrokerProfile, id: string): Promise<Response> {
  const doc = await loadProposalDocument(db, id);
  if (!doc) return new Response("Proposta não encontrada.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  const pdf = await buildProposalPdf(doc, broker);
  const fileName = `proposta-${doc.listing.codigo.replace(/[^A-Za-z0-9-]/g, "") || "imovel"}-${id.slice(0, 8)}.pdf`;
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(pdf.length),
      "Content-Disposition": `attachment; filename="${fileName}"`,
      // Personal data: never kept by a browser or a proxy.
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
