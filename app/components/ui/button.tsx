import type { ComponentProps } from "react";
import { cn } from "~/lib/utils";

const variants = {
  default: "bg-primary text-primary-foreground hover:bg-primary-hover",
  secondary: "bg-secondary text-secondary-foreground hover:bg-[#f8e6c6]",
  accent: "bg-accent text-accent-foreground hover:bg-[#d99330]",
  outline: "border border-input bg-white text-foreground hover:bg-muted",
  ghost: "text-foreground hover:bg-muted",
  whatsapp: "bg-whatsapp text-white hover:bg-whatsapp-hover",
  destructive: "bg-destructive text-destructive-foreground hover:bg-[#991b1b]",
  link: "text-primary underline-offset-4 hover:underline px-0",
  onDark: "border border-white/70 bg-transparent text-white hover:bg-white/10",
} as const;

const sizes = {
  sm: "h-9 px-3 text-sm",
  default: "h-11 px-5 text-sm",
  lg: "h-12 px-6 text-base",
  icon: "h-11 w-11",
} as const;

export type ButtonProps = ComponentProps<"button"> & {
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
};

export function buttonClass(variant: keyof typeof variants = "default", size: keyof typeof sizes = "default") {
  return cn(
    "inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md font-semibold transition-colors",
    "disabled:pointer-events-none disabled:opacity-60 [&_svg]:size-4 [&_svg]:shrink-0",
    variants[variant],
    sizes[size],
  );
}

/** A button. For a link that looks like one, put buttonClass() on the <Link> or <a>. */
export function Button({ className, variant, size, type, ...props }: ButtonProps) {
  return <button className={cn(buttonClass(variant, size), className)} type={type ?? "button"} {...props} />;
}
