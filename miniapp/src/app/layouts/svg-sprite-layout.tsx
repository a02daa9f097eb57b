import { Outlet } from 'react-router';
import styles from './layouts.module.css';

/** SPEC §2 svg-sprite layout: a bare page showing the icon sprite. */
export function SvgSpriteLayout() {
  return (
    <main className={styles.spriteMain} data-layout="svg-sprite">
      <Outlet />
    </main>
  );
}
