import { useEffect, useState } from "react";
import { cn } from "~/lib/utils";
import { SECTIONS, type SectionId, sectionDomId } from "./form-model";

/** Brings a section into view in the dialog's scrolling body and puts the keyboard at its title. */
export function goToSection(id: SectionId) {
  const section = document.getElementById(sectionDomId(id));
  if (!section) return;
  section.scrollIntoView({ block: "start" });
  section.querySelector<HTMLElement>("h3")?.focus({ preventScroll: true });
}

/**
 * Links to the form's sections, in the dialog's fixed header: one tap (or Tab and Enter) reaches
 * any section, the one in view is marked, and a section holding errors says how many.
 */
export function SectionNav({ errorCounts }: { errorCounts: Partial<Record<SectionId, number>> }) {
  const [current, setCurrent] = useState<SectionId>("basico");

  useEffect(() => {
    const visible = new Set<SectionId>();
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const id = entry.target.id.replace("secao-", "") as SectionId;
        if (entry.isIntersecting) visible.add(id);
        else visible.delete(id);
      }
      const first = SECTIONS.find((section) => visible.has(section.id));
      if (first) setCurrent(first.id);
    });
    for (const section of SECTIONS) {
      const element = document.getElementById(sectionDomId(section.id));
      if (element) observer.observe(element);
    }
    return () => observer.disconnect();
  }, []);

  return (
    <nav aria-label="Seções do formulário">
      <ul className="flex flex-wrap gap-1">
        {SECTIONS.map((section) => {
          const errors = errorCounts[section.id] ?? 0;
          return (
            <li key={section.id}>
              <button
                type="button"
                aria-current={current === section.id ? "true" : undefined}
                onClick={() => {
                  setCurrent(section.id);
                  goToSection(section.id);
                }}
                className={cn(
                  "inline-flex h-8 items-center gap-1 rounded-full border px-2.5 text-xs font-semibold",
                  current === section.id ? "border-primary bg-primary text-primary-foreground" : "border-input bg-white text-foreground hover:bg-muted",
                  errors > 0 && current !== section.id && "border-destructive text-destructive",
                )}
              >
                {section.label}
                {errors > 0 && (
                  <span className="rounded-full bg-destructive px-1.5 text-[0.7rem] leading-4 text-white">
                    {errors}
                    <span className="sr-only"> {errors === 1 ? "erro" : "erros"}</span>
                  </span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
