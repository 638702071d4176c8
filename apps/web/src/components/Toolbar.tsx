import { Flex } from 'antd';
import { ColorModeSwitch } from './ColorModeSwitch.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';

export function Toolbar() {
  return (
    <Flex gap={8} align="center">
      <LanguageSwitch />
      <ColorModeSwitch />
    </Flex>
  );
}
