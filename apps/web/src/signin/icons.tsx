// antd's own glyphs as plain SVG: the sign-in page draws them without antd's icon component.
import type { IconDefinition } from '@ant-design/icons-svg/es/types';

export { default as DesktopOutlined } from '@ant-design/icons-svg/es/asn/DesktopOutlined';
export { default as EyeInvisibleOutlined } from '@ant-design/icons-svg/es/asn/EyeInvisibleOutlined';
export { default as EyeOutlined } from '@ant-design/icons-svg/es/asn/EyeOutlined';
export { default as GlobalOutlined } from '@ant-design/icons-svg/es/asn/GlobalOutlined';
export { default as LockOutlined } from '@ant-design/icons-svg/es/asn/LockOutlined';
export { default as MoonOutlined } from '@ant-design/icons-svg/es/asn/MoonOutlined';
export { default as SunOutlined } from '@ant-design/icons-svg/es/asn/SunOutlined';
export { default as UserOutlined } from '@ant-design/icons-svg/es/asn/UserOutlined';

/** One icon, decorative (hidden from screen readers: the control around it carries the name). */
export function Icon({ of }: { of: IconDefinition }) {
  const { icon } = of;
  if (typeof icon === 'function') return null;
  return (
    <svg
      className="si-icon"
      viewBox={icon.attrs.viewBox}
      width="1em"
      height="1em"
      fill="currentColor"
      aria-hidden="true"
    >
      {(icon.children ?? []).map((child) => (
        <path key={child.attrs.d} d={child.attrs.d} />
      ))}
    </svg>
  );
}
