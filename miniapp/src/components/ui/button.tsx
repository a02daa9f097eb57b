import type { ButtonHTMLAttributes } from 'react';
import styles from './button.module.css';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  fullWidth?: boolean;
}

/** The button look, for links that act as buttons. */
export function buttonClassName(variant: ButtonVariant = 'primary', fullWidth = false, className?: string): string {
  return [styles.button, styles[variant], fullWidth ? styles.fullWidth : null, className].filter(Boolean).join(' ');
}

export function Button({ variant = 'primary', fullWidth = false, className, type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={buttonClassName(variant, fullWidth, className)} {...props} />;
}
