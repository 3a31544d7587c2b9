import { ModalDialog } from "~/components/ui/modal-dialog";
import { BookingForm } from "./booking-form";

/** The 'Agendar Visita' dialog (loaded on demand by BookingButton). */
export default function BookingDialog({
  open,
  onClose,
  property,
}: {
  open: boolean;
  onClose: () => void;
  property?: { id: string; title: string };
}) {
  return (
    <ModalDialog
      open={open}
      onClose={onClose}
      title="Agendar Visita"
      description={property ? <>Imóvel: <strong className="text-foreground">{property.title}</strong></> : "Conte quando pode visitar e qual imóvel procura."}
    >
      <BookingForm propertyId={property?.id} onBooked={onClose} />
    </ModalDialog>
  );
}
