import { lazy, Suspense, useState } from "react";
import { buttonClass } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { cn } from "~/lib/utils";

const loadDialog = () => import("./booking-dialog");
const BookingDialog = lazy(loadDialog);

/**
 * 'Agendar Visita'. A link to the booking page (works without JavaScript); with JavaScript it
 * opens the booking dialog instead, whose code loads when the visitor reaches for the button.
 */
export function BookingButton({
  property,
  className,
  variant = "default",
  size = "lg",
}: {
  property?: { id: string; title: string };
  className?: string;
  variant?: "default" | "outline" | "accent";
  size?: "default" | "lg";
}) {
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const warmUp = () => void loadDialog();

  return (
    <>
      <a
        href={property ? `/agendar-visita?imovel=${property.id}` : "/agendar-visita"}
        className={cn(buttonClass(variant, size), className)}
        aria-haspopup="dialog"
        onPointerEnter={warmUp}
        onFocus={warmUp}
        onClick={(event) => {
          event.preventDefault();
          setLoaded(true);
          setOpen(true);
        }}
      >
        <Icon name="calendar" /> Agendar Visita
      </a>
      {loaded && (
        <Suspense fallback={null}>
          <BookingDialog open={open} onClose={() => setOpen(false)} property={property} />
        </Suspense>
      )}
    </>
  );
}
