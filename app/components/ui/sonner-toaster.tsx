import { useEffect } from "react";
import { Toaster } from "sonner";

/** sonner's toaster with our settings; loaded on demand by toaster.tsx. */
export default function SonnerToaster({ onMounted }: { onMounted: () => void }) {
  useEffect(() => onMounted(), [onMounted]);
  return (
    <Toaster
      position="top-center"
      richColors
      closeButton
      duration={5000}
      // sonner's amber warning text is below AA contrast on its background: ours is darker.
      toastOptions={{ classNames: { toast: "font-sans text-sm", warning: "bg-amber-50! text-amber-950! border-amber-600!" } }}
      containerAriaLabel="Notificações"
    />
  );
}
