// The server sorts each list by a few fields only (and refuses others with 400): every column
// of a Datagrid is sortable in react-admin unless told, so the lists say which ones are.
import { Children, cloneElement, Fragment, isValidElement, type ReactNode } from 'react';

/**
 * The fields of `children` (a fragment's children are taken out of it: a Datagrid wants its
 * columns as direct children) with `sortable` set: true only for the `sorts` the server allows.
 */
export function onlySortable(sorts: readonly string[], children: ReactNode): ReactNode[] {
  return Children.toArray(children).flatMap((child): ReactNode[] => {
    if (!isValidElement<{ source?: unknown; children?: ReactNode }>(child)) return [child];
    if (child.type === Fragment) return onlySortable(sorts, child.props.children);
    if (typeof child.props.source !== 'string') return [child];
    return [cloneElement(child as React.ReactElement<{ sortable?: boolean }>, { sortable: sorts.includes(child.props.source) })];
  });
}
