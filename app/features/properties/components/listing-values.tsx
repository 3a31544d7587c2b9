import type { PresentedValue } from "../listing-facts";

/** 'Valores' (issue 22): price, condomínio, IPTU and a rent's monthly total, formatted by the loader. */
export function ListingValues({ values }: { values: PresentedValue[] }) {
  if (values.length === 0) return null;
  return (
    <section aria-labelledby="values-heading">
      <h2 id="values-heading" className="text-xl font-semibold">
        Valores
      </h2>
      <dl className="mt-3 divide-y divide-border rounded-lg border border-border bg-white">
        {values.map((item) => (
          <div key={item.label} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-4 py-3">
            <dt className="text-muted-foreground">{item.label}</dt>
            <dd className="text-right font-semibold">
              {item.value}
              {item.note && <span className="block text-xs font-normal text-muted-foreground">{item.note}</span>}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
