-- The window: the crypt's 40 x 20 cells of 16 pixels, a status line below.
function love.conf(t)
  t.identity = "strata-love"
  t.window.title = "strata: the crypt (LÖVE)"
  t.window.width = 40 * 16
  t.window.height = 20 * 16 + 20
  t.modules.audio, t.modules.sound, t.modules.joystick, t.modules.physics = false, false, false, false
end
