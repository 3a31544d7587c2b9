import { PROPERTY_TYPES } from "~/db/values";
import { TYPE_LABELS } from "../labels";

/** The four property types as <option>s, with their Portuguese labels (every type select uses them). */
export function PropertyTypeOptions() {
  return PROPERTY_TYPES.map((type) => (
    <option key={type} value={type}>
      {TYPE_LABELS[type]}
    </option>
  ));
}
